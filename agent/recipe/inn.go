package recipe

import "github.com/finbot/finbot/ru"

// ValidINN reports whether s is a Russian INN with valid check digits (10 digits for legal
// entities, 12 for individuals/IP): ru.ValidINN.
func ValidINN(s string) bool { return ru.ValidINN(s) }
