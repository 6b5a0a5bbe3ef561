// Package ru extracts dates, periods and currencies from Russian free text such as
// «курс евро на вчера», «динамика юаня за март», «/rate USD CNY 15.01.2026» or
// «кто нам должен на конец прошлого квартала».
//
// Everything here is deterministic and depends only on its arguments: "today" is
// decided by the now argument, in the Moscow zone ([Moscow]). The package knows
// nothing about rates or ledgers; callers decide what a future date or an unknown
// currency means for them.
//
// [ParsePeriod] finds the first date or period in a text and reports invalid dates
// («31.02.2026», «30 февраля») as a [*DateError] with a Russian reason.
// [FindCurrencies] finds the currencies of the Bank of Russia daily list named by ISO
// code, Russian name in any case and number, or symbol; [Suggest] proposes the closest
// ones for a code or name it does not know.
package ru
