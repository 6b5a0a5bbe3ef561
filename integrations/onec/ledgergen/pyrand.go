package ledgergen

import "fmt"

// pyRand is CPython's random.Random: the Mersenne Twister MT19937 seeded as random.seed(int)
// seeds it, and the methods generate.py calls, drawing the same numbers in the same order.
// Reproducing it (rather than using math/rand) is what makes the generated ledger equal to
// the Python generator's files, so the committed demo data can check the port.
type pyRand struct {
	mt  [624]uint32
	idx int
}

func newPyRand(seed uint64) *pyRand {
	// random.seed(n) uses |n| as an array of 32-bit words, least significant first.
	key := []uint32{uint32(seed)}
	if hi := uint32(seed >> 32); hi != 0 {
		key = append(key, hi)
	}
	r := &pyRand{}
	r.initByArray(key)
	return r
}

func (r *pyRand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < len(r.mt); i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.idx = len(r.mt)
}

func (r *pyRand) initByArray(key []uint32) {
	const n = 624
	r.initGenrand(19650218)
	i, j := 1, 0
	for k := max(n, len(key)); k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// uint32 is genrand_uint32.
func (r *pyRand) uint32() uint32 {
	const (
		n, m      = 624, 397
		upperMask = 0x80000000
		lowerMask = 0x7fffffff
		matrixA   = 0x9908b0df
	)
	if r.idx >= n {
		mag01 := [2]uint32{0, matrixA}
		var kk int
		for kk = 0; kk < n-m; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+m] ^ (y >> 1) ^ mag01[y&1]
		}
		for ; kk < n-1; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+(m-n)] ^ (y >> 1) ^ mag01[y&1]
		}
		y := (r.mt[n-1] & upperMask) | (r.mt[0] & lowerMask)
		r.mt[n-1] = r.mt[m-1] ^ (y >> 1) ^ mag01[y&1]
		r.idx = 0
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// random is random.random(): 53 random bits in [0, 1).
func (r *pyRand) random() float64 {
	a, b := r.uint32()>>5, r.uint32()>>6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// getrandbits is random.getrandbits(k) for k ≤ 64: 32-bit words, least significant first,
// the last one cut to the bits still wanted.
func (r *pyRand) getrandbits(k int) uint64 {
	if k <= 32 {
		if k == 0 {
			return 0
		}
		return uint64(r.uint32() >> (32 - k))
	}
	var v uint64
	for i := 0; k > 0; i, k = i+1, k-32 {
		w := r.uint32()
		if k < 32 {
			w >>= 32 - k
		}
		v |= uint64(w) << (32 * i)
	}
	return v
}

// randbelow is random._randbelow(n): rejection sampling over n's bit length.
func (r *pyRand) randbelow(n int) int {
	k := 0
	for v := n; v > 0; v >>= 1 {
		k++
	}
	x := r.getrandbits(k)
	for x >= uint64(n) {
		x = r.getrandbits(k)
	}
	return int(x)
}

// randint is random.randint(a, b), both ends included.
func (r *pyRand) randint(a, b int) int { return a + r.randbelow(b-a+1) }

// uniform is random.uniform(a, b). The conversion keeps the product from being fused into
// a multiply-add, which would round differently from Python.
func (r *pyRand) uniform(a, b float64) float64 { return a + float64((b-a)*r.random()) }

// uuid4 is str(uuid.UUID(int=getrandbits(128), version=4)).
func (r *pyRand) uuid4() string {
	var w [4]uint32
	for i := range w {
		w[i] = r.uint32() // least significant word first
	}
	lo := uint64(w[0]) | uint64(w[1])<<32
	hi := uint64(w[2]) | uint64(w[3])<<32
	lo = lo&^(0xc000<<48) | 0x8000<<48 // variant RFC 4122
	hi = hi&^(0xf000) | 0x4000         // version 4
	s := fmt.Sprintf("%016x%016x", hi, lo)
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}

// choice is random.choice(xs).
func choice[T any](r *pyRand, xs []T) T { return xs[r.randbelow(len(xs))] }
