package ru_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/ru"
)

// show writes no-break spaces as ordinary ones, as a reader sees them.
func show(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }

func ExampleCount() {
	for _, n := range []int{1, 3, 11, 21, 12345} {
		fmt.Println(show(ru.Count(n, "документ", "документа", "документов")))
	}
	// Output:
	// 1 документ
	// 3 документа
	// 11 документов
	// 21 документ
	// 12 345 документов
}

func ExampleMoney() {
	fmt.Println(show(ru.Money(123456789)))
	fmt.Println(show(ru.Money(-50)))
	// Output:
	// 1 234 567,89 ₽
	// −0,50 ₽
}

func ExampleDecimal() {
	fmt.Println(show(ru.Decimal("92.5000")))
	fmt.Println(show(ru.Decimal("-1234.56")))
	// Output:
	// 92,5000
	// −1 234,56
}

func ExampleMonthGenitive() {
	fmt.Println(15, ru.MonthGenitive(time.March))
	fmt.Println(ru.MonthName(time.March), 2026)
	// Output:
	// 15 марта
	// март 2026
}

func ExampleTruncate() {
	fmt.Println(ru.Truncate("Акт сверки взаиморасчётов с ООО «Ромашка»", 20))
	fmt.Println(ru.Truncate("Взаиморасчёты", 8))
	// Output:
	// Акт сверки…
	// Взаимор…
}
