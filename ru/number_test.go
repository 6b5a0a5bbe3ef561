package ru

import (
	"math"
	"strings"
	"testing"
)

// spaced shows no-break spaces as «_» so that a diff tells them from ordinary ones.
func spaced(s string) string { return strings.ReplaceAll(s, "\u00a0", "_") }

func TestNumber(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"},
		{7, "7"},
		{999, "999"},
		{1000, "1000"},
		{9999, "9999"},
		{10000, "10_000"},
		{123456, "123_456"},
		{1234567, "1_234_567"},
		{-5, "−5"},
		{-12345, "−12_345"},
		{math.MinInt64, "−9_223_372_036_854_775_808"},
	}
	for _, tt := range tests {
		if got := spaced(Number(tt.n)); got != tt.want {
			t.Errorf("Number(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestDecimal(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"0.5600", "0,5600"},
		{"92.5000", "92,5000"},
		{"1234.5", "1_234,5"},
		{"1234", "1_234"},
		{"1234567.89", "1_234_567,89"},
		{"-1234.5000", "−1_234,5000"},
		{"-0.01", "−0,01"},
		{"100000", "100_000"},
	}
	for _, tt := range tests {
		if got := spaced(Decimal(tt.in)); got != tt.want {
			t.Errorf("Decimal(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMoney(t *testing.T) {
	tests := []struct {
		kopecks int64
		want    string
	}{
		{0, "0,00_₽"},
		{5, "0,05_₽"},
		{-50, "−0,50_₽"},
		{100, "1,00_₽"},
		{123456, "1_234,56_₽"},
		{123456789, "1_234_567,89_₽"},
		{-125000000, "−1_250_000,00_₽"},
		{math.MaxInt64, "92_233_720_368_547_758,07_₽"},
		{math.MinInt64, "−92_233_720_368_547_758,08_₽"},
	}
	for _, tt := range tests {
		if got := spaced(Money(tt.kopecks)); got != tt.want {
			t.Errorf("Money(%d) = %q, want %q", tt.kopecks, got, tt.want)
		}
	}
}

func TestApprox(t *testing.T) {
	for _, tt := range []struct {
		kopecks int64
		want    string
	}{
		{410574502, "4,1 млн ₽"},
		{94999999, "950 тыс ₽"},
		{95000000, "1,0 млн ₽"},
		{1234567890123, "12 346 млн ₽"}, // 12 345 678 901,23 ₽
		{87049, "870 ₽"},
		{-2890000, "−29 тыс ₽"},
	} {
		if got := strings.ReplaceAll(Approx(tt.kopecks), "\u00a0", " "); got != tt.want {
			t.Errorf("Approx(%d) = %q, want %q", tt.kopecks, got, tt.want)
		}
	}
}
