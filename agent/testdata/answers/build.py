#!/usr/bin/env python3
"""Builds questions.jsonl: questions as accountants type them + the figures the answer must carry.

    python3 build.py [--data DIR] > questions.jsonl

Each question below carries OUR reading of it (what an accountant means): the recipe-ish kind,
the as-of date or period, the account, the counterparty (exact catalog name), the organization.
The figures are not written by hand: oracle.py computes them from the demo-ledger JSON.
Today is 2026-04-25 (Moscow); dates resolve per the corpus README's date conventions.
"""
import argparse
import json
import sys

from oracle import DEFAULT_DATA, ZERO, Ledger, fmt

TODAY = "2026-04-25"
TRADE = "ООО «Северный ветер Трейд»"

# exact catalog names
ALFA = "ООО «Альфа»"
VEKTOR = "АО «Вектор»"
VEKTOR_P = "ООО «Вектор Плюс»"
STROY = "ООО «СтройМаркет»"
TECHNO = "ООО «ТехноЛайн»"
SEVLOG = "ПАО «Северсталь-Логистик»"
GRANIT = "ООО «Гранит»"
GRANIT_M = "ООО «Гранит-М»"
SMIRNOV = "ИП Смирнов Алексей Петрович"
OKEAN = "ООО «Океан»"
MERID = "ООО «Меридиан»"
URAL = "АО «Уральские Системы»"
BETA = "ООО «Бета Групп»"
ROMASHKA = 'ООО "Ромашка"'
DELTA = "ООО «Delta Trade»"
KUZN = "ИП Кузнецова Ольга Игоревна"
ENERG = "ООО «Энергия»"
TEHSNAB = "ООО «Техснаб»"
PROM = "ООО «ПромПоставка»"
METALL = "АО «Металлург-Инвест»"
LOGC = "ООО «Логистик Центр»"
BUMAGA = "ООО «Бумага и Ко»"
ELEKTRO = "ООО «ЭлектроКомплект»"
PETROV = "ИП Петров Иван Сергеевич"
SKLAD = "ООО «Склад-Сервис»"
ALFA_P = "ООО «Альфа Поставка»"
KANC = "ООО «КанцТорг»"
INFOSOFT = "ООО «ИнфоСофт»"
TRANS = "АО «ТрансАвто»"
PARTNER = "ООО «Партнер»"
UNIVERSAL = "ООО «Универсал»"

# names a careless reading confuses with each other
NAMESAKE = {VEKTOR: VEKTOR_P, VEKTOR_P: VEKTOR, GRANIT: GRANIT_M, GRANIT_M: GRANIT,
            ALFA: ALFA_P, ALFA_P: ALFA}

REAL = ("РеализацияТоваровУслуг",)
RECEIPT = ("ПоступлениеТоваровУслуг",)

# periods
MAR = ("2026-03-01", "2026-03-31")
FEB = ("2026-02-01", "2026-02-28")
JAN = ("2026-01-01", "2026-01-31")
Q1 = ("2026-01-01", "2026-03-31")
Y2025 = ("2025-01-01", "2025-12-31")
FEB1_MAR15 = ("2026-02-01", "2026-03-15")
MAY25 = ("2025-05-01", "2025-05-31")
DEC25 = ("2025-12-01", "2025-12-31")
Q4_25 = ("2025-10-01", "2025-12-31")
Q3_25 = ("2025-07-01", "2025-09-30")
Q2_25 = ("2025-04-01", "2025-06-30")
YTD = ("2026-01-01", TODAY)
JAN10_FEB10 = ("2026-01-10", "2026-02-10")


class Builder:
    def __init__(self, ledger):
        self.L = ledger
        self.rows = []

    # ------------------------------------------------------------ helpers
    def _emit(self, q, kind, date=None, period=None, figures=(), count=None, company=None,
              not_figures=(), note="", **meaning):
        row = {"q": q, "kind": kind}
        if date:
            row["date"] = date
        if period:
            row["period"] = {"from": period[0], "to": period[1]}
        figs = []
        for f in figures:
            if f not in figs:
                figs.append(f)
        row["figures"] = figs
        if count is not None:
            row["count"] = count
        if company:
            row["company"] = company
        nf = []
        for f in not_figures:
            if f not in figs and f not in nf and f != "0.00":
                nf.append(f)
        if nf:
            row["not_figures"] = nf
        if meaning:
            row["meaning"] = meaning
        if note:
            row["note"] = note
        self.rows.append(row)

    @staticmethod
    def _asof(date):
        return date or TODAY

    def _start_note(self, date, value_fn):
        """'на начало года/месяца' resolves to D (end of day, per the conventions); note the
        start-of-day reading (= end of the previous day) when the figures differ."""
        prev = {"2026-01-01": "2025-12-31", "2026-04-01": "2026-03-31"}.get(date)
        if not prev:
            return ""
        a, b = value_fn(date), value_fn(prev)
        if a == b:
            return "start-of-day reading (end of %s) gives the same figures" % prev
        return ("convention: end of day %s; the start-of-day reading (end of %s) would give %s"
                % (date, prev, ", ".join(b)))

    @staticmethod
    def _residue_note(oi):
        tiny = [fmt(i["open_amount"]) for i in oi["items"] if abs(i["open_amount"]) < 1]
        if not tiny:
            return ""
        return ("%d of the %d open items are kopeck residues (%s); they count, since the README's rule is "
                "'saldo other than zero'" % (len(tiny), oi["count"], ", ".join(tiny)))

    # ------------------------------------------------------------ recipes
    def lst(self, q, side, date=None, account=None, org=None, top=3, total=True, count=False,
            note="", start=False):
        """Receivables ('rec') or payables ('pay') list."""
        account = account or ("62" if side == "rec" else "60")
        fn = self.L.receivables if side == "rec" else self.L.payables

        def vals(d):
            r = fn(d, account, org)
            out = [fmt(x["amount"]) for x in r["rows"][:top]]
            if total:
                out.insert(0, fmt(r["total"]))
            return out

        r = fn(self._asof(date), account, org)
        figs = vals(self._asof(date)) if r["rows"] else []
        if count and r["rows"]:
            figs = [fmt(r["total"])]
        nf = []
        if date and date != TODAY and total:
            t = fn(TODAY, account, org)["total"]
            if t != r["total"]:
                nf.append(fmt(t))
        if total:
            other = fn(self._asof(date), account, None if org else TRADE)["total"]
            if other:
                nf.append(fmt(other))
        if start:
            note = "; ".join(x for x in (note, self._start_note(date, vals)) if x)
        if not r["rows"]:
            note = "; ".join(x for x in (note, "no %s on %s at this date: the answer is that there are none"
                                         % ("debtors" if side == "rec" else "creditors", account)) if x)
        self._emit(q, "ledger", date=date, figures=figs, count=len(r["rows"]) if count else None,
                   not_figures=nf, note=note,
                   recipe="receivables" if side == "rec" else "payables", account=account,
                   organization=org or None, top=top if not total else None)

    def leader(self, q, side, date=None, account=None, n=1, note=""):
        """'кто больше всех должен': the first n rows; the top one is named."""
        account = account or ("62" if side == "rec" else "60")
        fn = self.L.receivables if side == "rec" else self.L.payables
        r = fn(self._asof(date), account, None)
        rows = r["rows"][:n]
        self._emit(q, "ledger", date=date, figures=[fmt(x["amount"]) for x in rows],
                   company=rows[0]["counterparty"], note=note or "the answer must name %s first" % rows[0]["counterparty"],
                   recipe="receivables" if side == "rec" else "payables", account=account, top=n)

    def snap(self, q, account, date=None, org=None, note="", start=False):
        def vals(d):
            s = self.L.snapshot(account, d, org)
            out = [fmt(s[k]) for k in ("debit_balance", "credit_balance") if s[k] != ZERO]
            return out

        d = self._asof(date)
        s = self.L.snapshot(account, d, org)
        figs = vals(d)
        notes = [note] if note else []
        if not figs:
            figs = ["0.00"]
            notes.append("zero balance: no movements on %s; the answer must say the balance is 0" % account)
        if self.L.has_cp_subconto(account) and "." not in account:
            alt = self.L.snapshot_by_subaccount(account, d, org)
            if alt != s:
                notes.append("README reading (counterparty saldos netted across sub-accounts): Dt %s / Ct %s; "
                             "1C OSV per sub-account would show Dt %s / Ct %s"
                             % (fmt(s["debit_balance"]), fmt(s["credit_balance"]),
                                fmt(alt["debit_balance"]), fmt(alt["credit_balance"])))
        if start:
            notes.append(self._start_note(date, vals))
        nf = []
        if date and date != TODAY:
            nf += [x for x in vals(TODAY) if x not in figs]
        if org is None:
            other = self.L.snapshot(account, d, TRADE)
            nf += [fmt(other[k]) for k in ("debit_balance", "credit_balance") if other[k] != ZERO]
        self._emit(q, "ledger", date=date, figures=figs, not_figures=nf, note="; ".join(notes),
                   recipe="account_balance_snapshot", account=account, organization=org or None,
                   debit_balance=fmt(s["debit_balance"]), credit_balance=fmt(s["credit_balance"]),
                   net_balance=fmt(s["net_balance"]))

    def saldo(self, q, cp, account, date=None, org=None, note="", open_count=False, recipe="open_items_by_counterparty"):
        """One counterparty's debt on 62 ('нам должен') or 60 ('мы должны'). Figure = |saldo|."""
        d = self._asof(date)
        v = self.L.cp_saldo(cp, account, d, org)
        root = account.split(".")[0]
        notes = [note] if note else []
        if v == ZERO:
            notes.append("no saldo on %s for %s in %s: the answer is that there is no debt"
                         % (account, cp, org or "the default organization"))
        elif root == "62" and v < 0:
            notes.append("saldo on %s is a CREDIT %s: the customer has prepaid, we owe them the advance"
                         % (account, fmt(-v)))
        elif root == "60" and v > 0:
            notes.append("saldo on %s is a DEBIT %s: we prepaid, the supplier owes us (advance issued), we owe nothing"
                         % (account, fmt(v)))
        figs = [fmt(abs(v))] if v != ZERO else []
        nf = []
        if date and date != TODAY:
            t = self.L.cp_saldo(cp, account, TODAY, org)
            if t != v:
                nf.append(fmt(abs(t)))
        if cp in NAMESAKE:
            for acc in ("62", "60"):
                o = self.L.cp_saldo(NAMESAKE[cp], acc, d, org)
                if o != ZERO:
                    nf.append(fmt(abs(o)))
        o = self.L.cp_saldo(cp, account, d, None if org else TRADE)
        if o != ZERO:
            nf.append(fmt(abs(o)))
        oi = self.L.open_items(d, cp=cp, accounts=(root,), org=org)
        self._emit(q, "ledger", date=date, figures=figs, count=oi["count"] if open_count or v == ZERO else None,
                   company=cp, not_figures=nf, note="; ".join(notes), recipe=recipe, account=account,
                   organization=org or None, saldo=fmt(v))

    def debt(self, q, cp, date=None, org=None, note="", count=True, recipe="open_items_by_counterparty"):
        """Open items of a counterparty on 60 and 62: figures = the per-account totals."""
        d = self._asof(date)
        oi = self.L.open_items(d, cp=cp, org=org)
        figs = [fmt(abs(v)) for acc, v in sorted(oi["by_account"].items()) if v != ZERO]
        notes = [note] if note else []
        notes.append("open items: " + ", ".join("%s %s" % (a, fmt(v)) for a, v in sorted(oi["by_account"].items())))
        if count and self._residue_note(oi):
            notes.append(self._residue_note(oi))
        nf = []
        if date and date != TODAY:
            t = self.L.open_items(TODAY, cp=cp, org=org)
            nf += [fmt(abs(v)) for v in t["by_account"].values() if v != ZERO]
        if cp in NAMESAKE:
            o = self.L.open_items(d, cp=NAMESAKE[cp], org=org)
            nf += [fmt(abs(v)) for v in o["by_account"].values() if v != ZERO]
        self._emit(q, "ledger", date=date, figures=figs, count=oi["count"] if count else None, company=cp,
                   not_figures=nf, note="; ".join(notes), recipe=recipe, accounts=["60", "62"],
                   organization=org or None)

    def contract(self, q, number, cp, date=None, note=""):
        d = self._asof(date)
        ref = self.L.contract(number, cp)
        oi = self.L.open_items(d, contract=ref)
        figs = [fmt(abs(v)) for acc, v in sorted(oi["by_account"].items()) if v != ZERO]
        nf = []
        whole = self.L.open_items(d, cp=cp)
        nf += [fmt(abs(v)) for v in whole["by_account"].values() if v != ZERO]
        if date and date != TODAY:
            t = self.L.open_items(TODAY, contract=ref)
            nf += [fmt(abs(v)) for v in t["by_account"].values() if v != ZERO]
        notes = [note] if note else []
        notes.append("contract open items: " + (", ".join("%s %s" % (a, fmt(v)) for a, v in
                                                          sorted(oi["by_account"].items())) or "none"))
        if self._residue_note(oi):
            notes.append(self._residue_note(oi))
        self._emit(q, "ledger", date=date, figures=figs, count=oi["count"], company=cp, not_figures=nf,
                   note="; ".join(notes), recipe="open_items_by_contract", contract=number)

    def docs(self, q, cp, period, types=None, org=None, contract=None, note=""):
        ref = self.L.contract(contract, cp) if contract else None
        ds = self.L.documents(period[0], period[1], cp=None if ref else cp, contract=ref, types=types, org=org)
        notes = [note] if note else []
        if types:
            every = self.L.documents(period[0], period[1], cp=None if ref else cp, contract=ref, org=org)
            notes.append("type-filtered reading (%s only): %d; all documents of the counterparty in the period: %d"
                         % ("/".join(types), len(ds), len(every)))
        unposted = sum(1 for x in ds if not x["posted"])
        if unposted:
            notes.append("%d of them unposted (kept, marked posted=false)" % unposted)
        deleted = [x for x in self.L.docs if x["deletion_mark"] and period[0] <= x["date"][:10] <= period[1]
                   and x["counterparty_ref"] == self.L.cp(cp) and x["organization_ref"] == self.L.org(org)]
        if deleted:
            notes.append("%d deletion-marked left out" % len(deleted))
        self._emit(q, "ledger", period=period, figures=[], count=len(ds), company=cp, note="; ".join(notes),
                   recipe="documents_by_counterparty" if not contract else "documents_by_contract",
                   organization=org or None, doc_types=list(types) if types else None, contract=contract)

    def bank(self, q, cp, period, direction=None, org=None, note=""):
        r = self.L.bank_ops(period[0], period[1], cp=cp, direction=direction, org=org)
        figs = [fmt(r["sum"])] if r["count"] else []
        notes = [note] if note else []
        if direction:
            every = self.L.bank_ops(period[0], period[1], cp=cp, org=org)
            if every["count"] != r["count"]:
                notes.append("direction %s only; both directions: %d ops, in %s / out %s"
                             % (direction, every["count"], fmt(every["sum_in"]), fmt(every["sum_out"])))
        if not r["count"]:
            notes.append("no bank operations in the period: the answer is that there are none")
        nf = []
        if org is None:
            o = self.L.bank_ops(period[0], period[1], cp=cp, direction=direction, org=TRADE)
            if o["count"]:
                nf.append(fmt(o["sum"]))
        self._emit(q, "ledger", period=period, figures=figs, count=r["count"], company=cp, not_figures=nf,
                   note="; ".join(notes), recipe="bank_ops_by_counterparty", direction=direction,
                   organization=org or None)

    # ------------------------------------------------------------ the reports of a period
    @staticmethod
    def _six(line):
        return [line[k] for k in ("open_dt", "open_kt", "dt", "kt", "close_dt", "close_kt")]

    def sheet(self, q, period, account=None, org=None, cp=None, detail=None, lines=(), note=""):
        """The turnover sheet: the total line's six figures (zeros left out), and the named
        lines' (an account, or for a breakdown the first line: the largest closing balance)."""
        r = self.L.sheet(period[0], period[1], account, org, cp=cp, detail=detail)
        six = lambda line: [fmt(abs(v)) for v in self._six(line) if v != ZERO]  # absolute: a red balance's sign is in the note
        figs = six(r["total"])
        for acc in lines:
            figs += six(next(l for l in r["lines"] if l["account"] == acc))
        if detail:
            figs += six(r["lines"][0])
        red = [x["account"] for l in r["lines"] for x in [l] + l.get("subaccounts", []) if "account" in x and min(self._six(x)) < ZERO]
        if red:
            note = "; ".join(x for x in (note, "red balance (negative debit of an active account) on %s" % ", ".join(sorted(set(red)))) if x)
        nf = []
        other = self.L.sheet(period[0], period[1], account, None if org else TRADE, cp=cp)["total"]
        nf += [f for f in six(other) if f not in figs]
        if cp in NAMESAKE:
            twin = self.L.sheet(period[0], period[1], account, org, cp=NAMESAKE[cp])["total"]
            nf += [f for f in six(twin) if f not in figs]
        self._emit(q, "ledger", period=period, figures=figs, company=cp, not_figures=nf, note=note,
                   recipe="turnover_sheet", account=account, organization=org, counterparty=cp, detail=detail)

    def card(self, q, account, period, org=None, cp=None, note=""):
        """The account card: opening and closing balance, turnovers and the number of postings."""
        r = self.L.card(period[0], period[1], account, org, cp=cp)
        figs = [fmt(abs(v)) for v in (r["opening"], r["debit"], r["credit"], r["closing"]) if v != ZERO]
        nf = []
        if cp in NAMESAKE:
            twin = self.L.card(period[0], period[1], account, org, cp=NAMESAKE[cp])
            nf += [fmt(abs(v)) for v in (twin["opening"], twin["closing"]) if v != ZERO and fmt(abs(v)) not in figs]
        other = self.L.card(period[0], period[1], account, None if org else TRADE, cp=cp)
        nf += [fmt(abs(v)) for v in (other["opening"], other["closing"]) if v != ZERO and fmt(abs(v)) not in figs]
        self._emit(q, "ledger", period=period, figures=figs, count=r["count"], company=cp, not_figures=nf, note=note,
                   recipe="account_card", account=account, organization=org, counterparty=cp,
                   opening=fmt(r["opening"]), closing=fmt(r["closing"]))

    def act(self, q, cp, period, org=None, contract=None, namesake=None, date=None, note=""):
        """The act of reconciliation: its opening and closing balance (absolute), its debit and
        credit turnovers and its number of documents (oracle.Ledger.act). Added with the act
        (issue #30) by its author, so not held out like the lines above."""
        a = self.L.act(period[0], period[1], cp, org=org, contract=contract)
        figs = [fmt(abs(a["closing"])), fmt(abs(a["opening"])), fmt(a["debit"]), fmt(a["credit"])]
        figs = [f for f in figs if f != "0.00"]
        nf = []
        if namesake:
            o = self.L.act(period[0], period[1], namesake, org=org)
            nf = [fmt(abs(o["closing"]))]
        side = "their debt to us" if a["closing"] > 0 else "our debt to them" if a["closing"] < 0 else "none"
        notes = [note] if note else []
        notes.append("closing balance: %s; %d documents" % (side, a["count"]))
        self._emit(q, "ledger", date=date, period=None if date else period, figures=figs, count=a["count"], company=cp,
                   not_figures=nf, note="; ".join(notes), recipe="reconciliation_act", organization=org or None,
                   contract=contract, period_asked={"from": period[0], "to": period[1]} if date else None)

    def other(self, q, kind, note, **meaning):
        self._emit(q, kind, figures=[], note=note, **meaning)


def build(b):
    # ================================================================ receivables lists
    b.lst("дебиторка на 1.03", "rec", "2026-03-01")
    b.lst("дз на 31.12", "rec", "2025-12-31")
    b.lst("кто нам должен на конец марта", "rec", "2026-03-31")
    b.lst("дебеторка на сегодня", "rec")
    b.lst("покажи дз на 31.12.24", "rec", "2024-12-31", note="opening balances (ВводОстатков) only")
    b.lst("список должников на 30.06", "rec", "2025-06-30")
    b.lst("дебиторская задолженность на 01.02.26", "rec", "2026-02-01")
    b.lst("кто должен на 1.05", "rec", "2025-05-01")
    b.lst("топ 5 должников", "rec", top=3, total=False)
    b.leader("кто больше всех должен нам на 31.12", "rec", "2025-12-31")
    b.lst("дз покупателей на 31.03.25", "rec", "2025-03-31")
    b.lst("сколько у нас должников на конец 2025", "rec", "2025-12-31", count=True)
    b.lst("задолжность покупателей на вчера", "rec", "2026-04-24")
    b.lst("дебиторка по 62.01 на 31.03", "rec", "2026-03-31", account="62.01",
          note="62.01 alone: advances on 62.02 not netted in")
    b.lst("кто должен по 76", "rec", account="76", count=True)
    b.lst("дз северного ветра трейд на 31.03", "rec", "2026-03-31", org=TRADE)
    b.lst("дебиторка северный ветер трейд на конец 2025", "rec", "2025-12-31", org=TRADE)
    b.lst("должники на 15.01", "rec", "2026-01-15")
    b.lst("кто из поставщиков нам должен", "rec", account="60",
          note="debit saldos on 60: advances issued not yet covered by deliveries")
    b.lst("кто нам должен по 60 на 31.03", "rec", "2026-03-31", account="60")
    b.lst("авансы выданные на 31.12", "rec", "2025-12-31", account="60.02")
    b.lst("топ 3 должника на 1.10", "rec", "2025-10-01", top=3, total=False)
    b.lst("дз на начало года", "rec", "2026-01-01", start=True)
    b.lst("дебиторка на 1 июля", "rec", "2025-07-01")
    b.lst("покупатели должники на 30 сентября", "rec", "2025-09-30")
    b.lst("дебиторка покупатели на начало квартала", "rec", "2026-04-01", start=True)
    b.lst("кто сколько должен на 31.01", "rec", "2026-01-31")
    b.leader("кто самый крупный должник", "rec")

    # ================================================================ payables lists
    b.lst("кредиторка на 1.03", "pay", "2026-03-01")
    b.lst("кз на 31.12", "pay", "2025-12-31")
    b.lst("кому мы должны на конец марта", "pay", "2026-03-31")
    b.lst("кридиторка сейчас", "pay")
    b.lst("кз на 31.12.24", "pay", "2024-12-31", note="opening balances (ВводОстатков) only")
    b.lst("скока должны поставщикам на 30.06", "pay", "2025-06-30")
    b.lst("кредиторская задолженность на 01.02.26", "pay", "2026-02-01")
    b.leader("кому больше всего должны", "pay")
    b.lst("топ 5 кредиторов на 31.12", "pay", "2025-12-31", top=3, total=False)
    b.lst("сколько у нас кредиторов на 31.03", "pay", "2026-03-31", count=True)
    b.lst("кредиторка по 60.01 вчера", "pay", "2026-04-24", account="60.01")
    b.lst("кз северный ветер трейд на 31.12", "pay", "2025-12-31", org=TRADE)
    b.lst("авансы полученные на 31.03", "pay", "2026-03-31", account="62.02")
    b.lst("кому мы должны по 62.02 на 1.03", "pay", "2026-03-01", account="62.02")
    b.lst("кз по 76 на 31.03", "pay", "2026-03-31", account="76", count=True)
    b.lst("кредиторка на 1.1", "pay", "2026-01-01", start=True)
    b.lst("кому должны на 1.05", "pay", "2025-05-01")
    b.lst("перед кем долги на 30 сентября", "pay", "2025-09-30")
    b.lst("кз поставщикам на 15.01", "pay", "2026-01-15")
    b.lst("кредиторка ветер трейд сегодня", "pay", org=TRADE)
    b.lst("задолженость перед поставщиками на конец 1 кв", "pay", "2026-03-31")
    b.leader("кому должны больше всех на 1.03", "pay", "2026-03-01")
    b.lst("кредиторка на 20.04", "pay", "2026-04-20")

    # ================================================================ account snapshots
    b.snap("остаток на р/с на 1.03", "51", "2026-03-01")
    b.snap("сальдо 51 на 31.12", "51", "2025-12-31")
    b.snap("сколько денег на счетах", "51")
    b.snap("остаток 51 сч на конец 1 кв", "51", "2026-03-31")
    b.snap("сальдо по 62 на 31.03", "62", "2026-03-31")
    b.snap("осв 60 на 31.12 сальдо", "60", "2025-12-31")
    b.snap("сальдо 62.02 на 1.03", "62.02", "2026-03-01")
    b.snap("остаток по 60.02 на конец марта", "60.02", "2026-03-31")
    b.snap("сальдо 76 на 31.03", "76", "2026-03-31")
    b.snap("остаток на расчетном счете трейда на 31.12", "51", "2025-12-31", org=TRADE)
    b.snap("сальдо 62.01 на начало года", "62.01", "2026-01-01", start=True)
    b.snap("сальдо 60.01 на 1.1", "60.01", "2026-01-01", start=True)
    b.snap("остаток по 62 сч", "62")
    b.snap("сальдо 60 вчера", "60", "2026-04-24")
    b.snap("какое сальдо на 62.02 на 30.06", "62.02", "2025-06-30")
    b.snap("р/с остаток на 30.06", "51", "2025-06-30")
    b.snap("ден средства на р/с на 31.03.25", "51", "2025-03-31")
    b.snap("сальдо сч 60 северный ветер трейд на 31.03", "60", "2026-03-31", org=TRADE)
    b.snap("остаток товаров 41.01 на 31.03", "41.01", "2026-03-31")
    b.snap("сальдо 19.03 на 31.12", "19.03", "2025-12-31")
    b.snap("осв по 62 на 31.12.24 какое сальдо", "62", "2024-12-31")
    b.snap("сальдо 51 на 1.05", "51", "2025-05-01")
    b.snap("остаток на р/с на начало года", "51", "2026-01-01", start=True)
    b.snap("сальдо 62 на начало месяца", "62", "2026-04-01", start=True)
    b.snap("сальдо 60.02 на 1.05", "60.02", "2025-05-01")
    b.snap("оборотка 62 сальдо на конец года 2025", "62", "2025-12-31")
    b.snap("сальдо расчеты с поставщиками на 1.03", "60", "2026-03-01")

    # ================================================================ one counterparty: they owe us (62)
    b.saldo("сколько нам должен вектор", VEKTOR, "62")
    b.saldo("долг вектор плюс на 31.03", VEKTOR_P, "62", "2026-03-31")
    b.saldo("ромашка скока должна на 1.03", ROMASHKA, "62", "2026-03-01")
    b.saldo("сколько должна ромашка", ROMASHKA, "62")
    b.saldo("задолженность строймаркета на 31.12", STROY, "62", "2025-12-31")
    b.saldo("сколько должен гранит на конец марта", GRANIT, "62", "2026-03-31")
    b.saldo("гранит-м долг на 1.03", GRANIT_M, "62", "2026-03-01")
    b.saldo("у гранита дз на 31.12", GRANIT, "62", "2025-12-31")
    b.saldo("дз по альфе", ALFA, "62")
    b.saldo("альфа сколько должна трейду на 31.03", ALFA, "62", "2026-03-31", org=TRADE)
    b.saldo("сколько нам должен инн 7507586709", ROMASHKA, "62")
    b.saldo("долг 9366414049 на 31.12", ALFA, "62", "2025-12-31",
            note="INN shared with the deletion-marked duplicate; resolves to the live ООО «Альфа»")
    b.saldo("дебиторка по смирнову на 1.03", SMIRNOV, "62", "2026-03-01")
    b.saldo("ип кузнецова сколько должна на 31.12", KUZN, "62", "2025-12-31")
    b.saldo("сколько должна дельта трейд", DELTA, "62")
    b.saldo("долг delta trade на 1.02", DELTA, "62", "2026-02-01")
    b.saldo("технолайн задолжность на 30.06", TECHNO, "62", "2025-06-30")
    b.saldo("северсталь-логистик скока должны на 1.03", SEVLOG, "62", "2026-03-01")
    b.saldo("скоько нам должен океан на конец прошлого месяца", OKEAN, "62", "2026-03-31")
    b.saldo("меридиан дз на 1.05", MERID, "62", "2025-05-01")
    b.saldo("бета групп долг на 31.03", BETA, "62", "2026-03-31")
    b.saldo("сколько должна энергия на 31.12", ENERG, "62", "2025-12-31")
    b.saldo("уральские системы сколько должны", URAL, "62",
            note="the customer has contracts with ООО «Северный ветер Трейд» only")
    b.saldo("сколько должен универсал", UNIVERSAL, "62",
            note="Универсал is customer and supplier; 'должен' (to us) asks about 62")
    b.saldo("сколько должна северсталь логистик на 31.12.24", SEVLOG, "62", "2024-12-31")
    b.saldo("вектору плюс дебиторка на 30.06", VEKTOR_P, "62", "2025-06-30")
    b.saldo("скока гранит м должен", GRANIT_M, "62")
    b.saldo("кузнецова ип долг перед нами", KUZN, "62")
    b.saldo("сальдо по ромашке для акта сверки на 31.03", ROMASHKA, "62", "2026-03-31",
            note="acts of reconciliation are unposted documents; the saldo is the ledger one")
    b.saldo("сколько векторр должен на 1.03", VEKTOR, "62", "2026-03-01")
    b.saldo("дз смирнов ип на конец 2025", SMIRNOV, "62", "2025-12-31")
    b.saldo("авансы полученные от строймаркета", STROY, "62.02", recipe="counterparty_saldo",
            note="62.02 only: the advance received, a credit saldo")

    # ================================================================ one counterparty: we owe (60)
    b.saldo("скольк мы должны промпоставке", PROM, "60")
    b.saldo("долг перед техснабом на 31.12", TEHSNAB, "60", "2025-12-31")
    b.saldo("сколько должны альфа поставке на 1.03", ALFA_P, "60", "2026-03-01")
    b.saldo("кз перед трансавто на конец марта", TRANS, "60", "2026-03-31")
    b.saldo("сколько мы должны металлург-инвесту", METALL, "60")
    b.saldo("долг перед металлург-инвестом в северном ветре трейд на 31.12", METALL, "60", "2025-12-31", org=TRADE)
    b.saldo("сколько должны логистик центру на 30.06", LOGC, "60", "2025-06-30")
    b.saldo("бумага и ко сколько мы должны на 31.03", BUMAGA, "60", "2026-03-31")
    b.saldo("долг перед электрокомплектм на 1.03", ELEKTRO, "60", "2026-03-01")
    b.saldo("скока должны петрову", PETROV, "60")
    b.saldo("склад-сервис кредиторка на 31.03", SKLAD, "60", "2026-03-31")
    b.saldo("сколько мы должны канцторгу", KANC, "60")
    b.saldo("сколько должны партнеру на 1.02", PARTNER, "60", "2026-02-01")
    b.saldo("сколько мы должны универсалу на 31.12", UNIVERSAL, "60", "2025-12-31")
    b.saldo("сколько должны инфософту", INFOSOFT, "60",
            note="the supplier has a contract with ООО «Северный ветер Трейд» only")
    b.saldo("кз по инн 4052902141 на 31.12", PROM, "60", "2025-12-31")
    b.saldo("сколько мы должны 2196164974 на 1.03", BUMAGA, "60", "2026-03-01")
    b.saldo("наш долг электрокомплекту", ELEKTRO, "60")
    b.saldo("сколько висит перед алфа поставкой", ALFA_P, "60")
    b.saldo("авансы выданные трансавто на 31.12", TRANS, "60.02", "2025-12-31", recipe="counterparty_saldo",
            note="60.02 only: the advance issued, a debit saldo")
    b.saldo("кредиторка по склад сервису вчера", SKLAD, "60", "2026-04-24")

    # ================================================================ open items / what hangs
    b.debt("что висит по вектору", VEKTOR)
    b.debt("неоплаченные документы ромашки на 31.03", ROMASHKA, "2026-03-31")
    b.debt("открытые позиции по универсалу", UNIVERSAL,
           note="both directions: they owe us on 62 and we owe them on 60")
    b.debt("что висит по трансавто на 31.03", TRANS, "2026-03-31")
    b.debt("неоплаченные реализации гранит-м", GRANIT_M,
           note="open items on 62 include the unoffset advance documents")
    b.debt("долг по металлург-инвесту на 31.03", METALL, "2026-03-31")
    b.debt("незакрытые доки по смирнову", SMIRNOV)
    b.debt("взаиморасчеты с партнером на 31.03", PARTNER, "2026-03-31")
    b.debt("расшифруй долг строймаркета", STROY, recipe="documents_forming_balance")
    b.debt("из чего складывается долг альфы поставки на 1.03", ALFA_P, "2026-03-01",
           recipe="documents_forming_balance")
    b.debt("что висит на техснабе на 31.12", TEHSNAB, "2025-12-31")
    b.debt("какие документы формируют долг гранита", GRANIT, recipe="documents_forming_balance")
    b.debt("неоплаченные по дельте трейд", DELTA)

    # ================================================================ by contract
    b.contract("дз вектора по дог п-54/2024 на 31.03", "П-54/2024", VEKTOR, "2026-03-31")
    b.contract("сколько висит по договору дп-68/2024 у канцторга", "ДП-68/2024", KANC)
    b.contract("долг по договору 214/2024", "214/2024", ROMASHKA,
               note="214/2024 is Ромашка's only contract; equals its saldo on 62")
    b.contract("по договору у-202/2025 промпоставка скока должны", "У-202/2025", PROM)
    b.contract("задолженность по договору 178/2024 на 31.12", "178/2024", ALFA, "2025-12-31")
    b.contract("дог 82/2025 трансавто долг на 1.03", "82/2025", TRANS, "2026-03-01")

    # ================================================================ documents over a period
    b.docs("документы по ромашке за март", ROMASHKA, MAR)
    b.docs("реализации вектору за 1 кв", VEKTOR, Q1, types=REAL)
    b.docs("какие документы были с гранитом в феврале", GRANIT, FEB)
    b.docs("доки по трансавто с 1.02 по 15.03", TRANS, FEB1_MAR15)
    b.docs("документы строймаркт за прошлый год", STROY, Y2025)
    b.docs("что проводили по смирнову за январь", SMIRNOV, JAN)
    b.docs("отгрузки гранит-м за 4 кв", GRANIT_M, Q4_25, types=REAL)
    b.docs("поступления товаров от промпоставки за декабрь", PROM, DEC25, types=RECEIPT)
    b.docs("документы по договору 178/2024 за 2025", ALFA, Y2025, contract="178/2024")
    b.docs("все документы с альфа поставкой за май", ALFA_P, MAY25)
    b.docs("документы по меридиану за 1 кв", MERID, Q1)
    b.docs("доки технолайн за 3 квартал", TECHNO, Q3_25)
    b.docs("документы по партнеру в трейде за март", PARTNER, MAR, org=TRADE)
    b.docs("накладные от склад-сервиса за март", SKLAD, MAR, types=RECEIPT)
    b.docs("реализация бета групп за 2025", BETA, Y2025, types=REAL)
    b.docs("документы по 8376613972 за прошлый год", OKEAN, Y2025)
    b.docs("что было по энергии с начала года", ENERG, YTD)
    b.docs("документы по кузнецовой с 10.01 по 10.02", KUZN, JAN10_FEB10)
    b.docs("упд северсталь-логистик за 1 кв", SEVLOG, Q1, types=REAL)
    b.docs("документы дельта трейд за 4 кв", DELTA, Q4_25)
    b.docs("документы по канцторгу за 2 кв 2025", KANC, Q2_25)
    b.docs("доки по универсалу в феврале", UNIVERSAL, FEB)
    b.docs("упд от электрокомплекта за март", ELEKTRO, MAR, types=RECEIPT)
    b.docs("документы вектор плюс за прошлый год", VEKTOR_P, Y2025)
    b.docs("документы гранит за декабрь", GRANIT, DEC25)
    b.docs("покажи документы по альфе за май", ALFA, MAY25)
    b.docs("документы уральские системы по ветер трейду за 1 кв", URAL, Q1, org=TRADE)

    # ================================================================ bank operations over a period
    b.bank("платежи от ромашки за 2025", ROMASHKA, Y2025, "in")
    b.bank("п/п трансавто за 1 кв", TRANS, Q1, "out")
    b.bank("оплаты вектора с 1.02 по 15.03", VEKTOR, FEB1_MAR15, "in")
    b.bank("сколько заплатили промпоставке за прошлый год", PROM, Y2025, "out")
    b.bank("платёжки альфа поставке в феврале", ALFA_P, FEB, "out")
    b.bank("поступления на р/с от гранита за 4 кв", GRANIT, Q4_25, "in")
    b.bank("сколько оплатил строймаркет за январь", STROY, JAN, "in")
    b.bank("списания на склад-сервис за март", SKLAD, MAR, "out")
    b.bank("выписка по партнеру за 1 кв", PARTNER, Q1)
    b.bank("приход денег от смирнова с начала года", SMIRNOV, YTD, "in")
    b.bank("сколько перечислили петрову за февраль", PETROV, FEB, "out")
    b.bank("оплаты от бета групп за 2025", BETA, Y2025, "in")
    b.bank("платежи универсалу за 2025", UNIVERSAL, Y2025, "out",
           note="Универсал is both; 'универсалу' = paid by us")
    b.bank("оплаты от универсала за 2025", UNIVERSAL, Y2025, "in",
           note="Универсал is both; 'от универсала' = received from them")
    b.bank("п/п металлург-инвесту по ветер трейду за 2025", METALL, Y2025, "out", org=TRADE)
    b.bank("платежи от гранит-м за май", GRANIT_M, MAY25, "in")
    b.bank("сколко заплатили канцторгу за 2 кв 2025", KANC, Q2_25, "out")
    b.bank("оплаты от кузнецовой за декабрь", KUZN, DEC25, "in",
           note="no documents of this customer in Dec 2025")
    b.bank("платежки электрокомплекту с 1.02 по 15.03", ELEKTRO, FEB1_MAR15, "out")
    b.bank("поступления денег от дельта трейд за 3 квартал", DELTA, Q3_25, "in")
    b.bank("сколько пришло от альфы за прошлый месяц", ALFA, MAR, "in")
    b.bank("оплаты инн 2318069953 за 1 кв", ENERG, Q1, "in")
    b.bank("платежи трансавто за декабрь", TRANS, DEC25, "out")
    b.bank("оплата от северсталь-логистик в феврале", SEVLOG, FEB, "in")
    b.bank("плтежи от вектор плюс за прошлый год", VEKTOR_P, Y2025, "in")
    b.bank("сколько денег пришло от меридиана за 1 кв", MERID, Q1, "in")

    # ================================================================ the turnover sheet of a period
    b.sheet("осв за март", MAR, lines=("62", "60"))
    b.sheet("оборотка за 1 квартал", Q1, lines=("51",))
    b.sheet("оборотно-сальдовая ведомость за 2025 год", Y2025)
    b.sheet("осв за 4 кв", Q4_25, lines=("90",))
    b.sheet("осв по 62 за март", MAR, account="62", lines=("62",),
            note="BP's expanded balance: 62.01 debts and 62.02 advances apart; the collapsed balance is the "
                 "snapshot's figure")
    b.sheet("оборотка по 62.01 за 1 квартал", Q1, account="62.01", lines=("62.01",))
    b.sheet("обороты по 51 за 1 кв", Q1, account="51", lines=("51",))
    b.sheet("сальдо на начало и конец по 60 за март", MAR, account="60", lines=("60",))
    b.sheet("обортка по 60 за февраль", FEB, account="60", lines=("60",), note="typo оборотка")
    b.sheet("оборотка 51 с 1.02 по 15.03", FEB1_MAR15, account="51", lines=("51",))
    b.sheet("осв по 62 по контрагентам за март", MAR, account="62", detail="counterparty")
    b.sheet("осв 60 по договорам за 1 кв", Q1, account="60", detail="contract")
    b.sheet("осв за прошлый месяц по ветер трейд", MAR, org=TRADE, lines=("41",),
            note="41.01 runs red (credit balance of an active account): shown as a negative debit")
    b.sheet("обороты по гранит за март", MAR, cp=GRANIT, lines=("62",))
    b.sheet("осв по 62 по альфе за 1 кв", Q1, account="62", cp=ALFA, detail="contract",
            note="one company on one account: its contracts")
    b.sheet("остатки и обороты по 41.01 за январь", JAN, account="41.01", lines=("41.01",))
    b.sheet("оборотно сальдовая по 90 за 2025", Y2025, account="90", lines=("90",))
    b.sheet("входящее и исходящее сальдо по 62 за март", MAR, account="62", lines=("62",))
    b.sheet("осв по 60.02 за 2025 год", Y2025, account="60.02", lines=("60.02",))
    b.sheet("осв по 19.03 за 1 кв", Q1, account="19.03", lines=("19.03",))
    b.sheet("оборотка по вектору за 2025", Y2025, cp=VEKTOR, lines=("62",))

    # ================================================================ the account card of a period
    b.card("карточка 51 за март", "51", MAR)
    b.card("карточка счета 62 по Альфе за март", "62", MAR, cp=ALFA)
    b.card("карточка 60 по альфа поставке за март", "60", MAR, cp=ALFA_P)
    b.card("карточку 62.01 за прошлый месяц", "62.01", MAR)
    b.card("карточка сч 60.02 за 4 кв", "60.02", Q4_25)
    b.card("карточка по счету 62 вектор за февраль", "62", FEB, cp=VEKTOR)
    b.card("карточка счета 51 за 2025 год по ветер трейд", "51", Y2025, org=TRADE)
    b.card("карточка 41.01 за 15.03", "41.01", ("2026-03-15", "2026-03-15"))
    b.card("карточка 90.01.1 за январь", "90.01.1", JAN)
    b.card("кароточка 51 за февраль", "51", FEB, note="typo карточка")
    b.card("карточка 62 по гранит за 1 кв", "62", Q1, cp=GRANIT)
    b.card("карточка 60 за март", "60", MAR)
    b.card("карточка 68.02 за 1 кв", "68.02", Q1)
    b.card("карточка 19.03 за март", "19.03", MAR)
    b.card("карточка 62.02 за 2025 год", "62.02", Y2025)
    b.card("карточка 60 по склад-сервису за 1 кв", "60", Q1, cp=SKLAD)
    b.card("карточка счета 51 с 1.02 по 15.03", "51", FEB1_MAR15)
    b.card("карточка 62 по вектор плюс за март", "62", MAR, cp=VEKTOR_P)
    b.card("карточка 62 за 31.12.24", "62", ("2024-12-31", "2024-12-31"), note="the day the opening balances were entered")
    b.card("карточка 60.01 по промпоставке за декабрь", "60.01", DEC25, cp=PROM)
    # The act of reconciliation (issue #30): written with the act, by its author.
    b.act("акт сверки с альфой за 1 квартал", ALFA, Q1, namesake="ООО «Альфа Поставка»")
    b.act("сверка с универсалом за 2025 год", "ООО «Универсал»", ("2025-01-01", "2025-12-31"),
          note="a customer and a supplier at once: 60 and 62 in one act")
    b.act("акт сверки с техснабом за 1 кв", "ООО «Техснаб»", Q1)
    b.act("акт сверки с альфой по договору П-77/2024 за 2025", ALFA, ("2025-01-01", "2025-12-31"), org=TRADE, contract="П-77/2024",
          note="the contract is ООО «Северный ветер Трейд»'s: the act is that organization's")
    b.act("сделай акт сверки с ромашкой на 31.03", ROMASHKA, Q1, date="2026-03-31",
          note="a date alone is the act's end; the period is its quarter up to it")
    b.act("акт сверки с вектором с начала года", VEKTOR, ("2026-01-01", TODAY), namesake="ООО «Вектор Плюс»")
    b.other("акт сверки с ООО Гамма за март", "unknown_entity", "no such counterparty in the catalog")

    # ================================================================ clarify
    b.other("сколько должны гранитовские", "clarify",
            "fits ООО «Гранит» and ООО «Гранит-М» equally", candidates=[GRANIT, GRANIT_M])
    b.other("долг альфовских на 31.03", "clarify",
            "fits ООО «Альфа» and ООО «Альфа Поставка» equally", candidates=[ALFA, ALFA_P])
    b.other("логистик сколько должны", "clarify",
            "fits ООО «Логистик Центр» and ПАО «Северсталь-Логистик»", candidates=[LOGC, SEVLOG])
    b.other("дз на 31.02", "clarify", "impossible date")
    b.other("сальдо 62 на 30.02", "clarify", "impossible date")
    b.other("остаток на р/с на 32.01", "clarify", "impossible date")
    b.other("что по договору дп-68/2024", "clarify",
            "contract number shared by three counterparties (Энергия, Техснаб, КанцТорг)",
            candidates=[ENERG, TEHSNAB, KANC])
    b.other("гранит или гранит-м не помню, сколько они нам должны", "clarify",
            "user unsure which one", candidates=[GRANIT, GRANIT_M])
    b.other("вектор какой то нам должен не помню какой", "clarify",
            "user unsure which one", candidates=[VEKTOR, VEKTOR_P])
    b.other("а за март?", "clarify", "no earlier context")
    b.other("покажи", "clarify", "too vague")
    b.other("сколько", "clarify", "too vague")
    b.other("осв по 62", "clarify", "turnover sheet without a period: the bot asks for one")
    b.other("карточка за март", "clarify", "account card without an account: the bot asks for one")
    b.other("обороты по 51 за квартал", "clarify", "which quarter is not said: the bot asks for the period")
    b.other("альфа или альфа поставка, кто-то из них нам платил в марте, сколько?", "clarify",
            "user unsure which one", candidates=[ALFA, ALFA_P])

    # ================================================================ unknown entity
    b.other("сколько нам должен зенит", "unknown_entity", "no such counterparty")
    b.other("дз по ооо орион на 31.03", "unknown_entity", "no such counterparty")
    b.other("платежи от байкала за март", "unknown_entity", "no such counterparty")
    b.other("долг кедра на 1.03", "unknown_entity", "no such counterparty")
    b.other("сколько должен инн 7701234567", "unknown_entity", "INN not in the catalog")
    b.other("кредиторка по лукойлу", "unknown_entity", "no such counterparty")
    b.other("документы по пегасу за 1 кв", "unknown_entity", "no such counterparty")

    # ================================================================ write requests
    b.other("удали платёжку 15", "ledger_write", "write request: the bot only reads")
    b.other("проведи реализацию по ромашке от 20.04", "ledger_write", "write request: the bot only reads")
    b.other("создай счет на оплату вектору на 100000", "ledger_write", "write request: the bot only reads")
    b.other("сторнируй п/п от 12.03 трансавто", "ledger_write", "write request: the bot only reads")
    b.other("пометь на удаление поступление от альфы за март", "ledger_write",
            "write request: the bot only reads")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default=DEFAULT_DATA)
    a = p.parse_args()
    b = Builder(Ledger(a.data))
    build(b)
    for row in b.rows:
        m = row.get("meaning")
        if m:
            row["meaning"] = {k: v for k, v in m.items() if v is not None}
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
