// Package ru is the bot's Russian: it reads dates, periods and currencies from free text such
// as «курс евро на вчера», «динамика юаня за март», «/rate USD CNY 15.01.2026» or «кто нам
// должен на конец прошлого квартала», and writes what people read: plural forms, month names,
// counts, amounts and money, text cut at a word boundary.
//
// Everything here is deterministic and depends only on its arguments: "today" is
// decided by the now argument, in the Moscow zone ([Moscow]). The package knows
// nothing about rates or ledgers; callers decide what a future date or an unknown
// currency means for them. It imports nothing of the project, so every layer may use it.
//
// [ParsePeriod] finds the first date or period in a text and reports invalid dates
// («31.02.2026», «30 февраля») as a [*DateError] with a Russian reason.
// [FindCurrencies] finds the currencies of the Bank of Russia daily list named by ISO
// code, Russian name in any case and number, or symbol; [Suggest] proposes the closest
// ones for a code or name it does not know.
//
// [Plural] and [Count] agree a noun with a number («3 документа»); [Number], [Decimal] and
// [Money] write figures with no-break spaces between thousands and a decimal comma
// («1 234 567,89 ₽»); [MonthName], [MonthGenitive], [MonthPrepositional] and [MonthAbbr] name
// months; [Truncate] shortens text at a word boundary with «…», [Clip] without a mark;
// [LowerFirst] puts a name inside a sentence («доллар США», «СДР»).
package ru
