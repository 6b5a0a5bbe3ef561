package docstore

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVectorsRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		vectors [][]float32
		dims    int
	}{
		{"one", [][]float32{{1.5}}, 1},
		{"several", [][]float32{{0, -0.25, 3}, {1e-30, -1e30, 42}}, 3},
		{"extremes", [][]float32{{float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, math.SmallestNonzeroFloat32}}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := encodeVectors(tt.vectors, tt.dims)
			if len(b) != len(tt.vectors)*tt.dims*4 {
				t.Fatalf("encoded %d bytes, want %d", len(b), len(tt.vectors)*tt.dims*4)
			}
			got, err := decodeVectors(b, len(tt.vectors), tt.dims)
			if err != nil {
				t.Fatalf("decodeVectors: %v", err)
			}
			if diff := cmp.Diff(tt.vectors, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVectorsLittleEndian(t *testing.T) {
	got := encodeVectors([][]float32{{1}}, 1)
	want := []byte{0x00, 0x00, 0x80, 0x3f} // 1.0 as IEEE 754 binary32, little-endian
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("encodeVectors({{1}}) (-want +got):\n%s", diff)
	}
}

func TestDecodeVectorsRejectsBadLengths(t *testing.T) {
	tests := []struct {
		name    string
		n, dims int
		bytes   int
	}{
		{"odd length", 1, 1, 3},
		{"one float short", 2, 3, 20},
		{"one float long", 2, 3, 28},
		{"bytes for no chunks", 0, 3, 12},
		{"nothing for chunks", 2, 3, 0},
		{"zero dims", 1, 0, 4},
		{"negative dims", 1, -1, 4},
		{"negative count", -1, 1, 4},
		{"product wraps to the length", math.MaxInt/2 + 1, 4, 0}, // n*dims*… wraps to 0 == floats
		{"huge dims", 3, math.MaxInt / 2, 48},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeVectors(make([]byte, tt.bytes), tt.n, tt.dims)
			if !errors.Is(err, errCorrupt) {
				t.Errorf("decodeVectors(%d bytes, %d, %d) = %d vectors, %v; want errCorrupt", tt.bytes, tt.n, tt.dims, len(got), err)
			}
		})
	}
}

func TestDecodeVectorsNoChunks(t *testing.T) {
	got, err := decodeVectors([]byte(nil), 0, 768)
	if err != nil || got != nil {
		t.Errorf("decodeVectors(nil, 0, 768) = %v, %v; want nil, nil", got, err)
	}
}
