package ru

// Plural picks the form of a Russian noun that goes with n: one for 1, 21, 101 («документ»),
// few for 2–4, 22–24 («документа»), many for 0, 5–20, 25… («документов»). 11–14 take many.
func Plural(n int, one, few, many string) string {
	if n < 0 {
		n = -n
	}
	n %= 100
	switch {
	case n >= 11 && n <= 14:
		return many
	case n%10 == 1:
		return one
	case n%10 >= 2 && n%10 <= 4:
		return few
	}
	return many
}

// Count writes n as [Number] does and the noun in the form that goes with it: «1 документ»,
// «3 документа», «12 345 документов».
func Count(n int, one, few, many string) string {
	return Number(n) + " " + Plural(n, one, few, many)
}
