#!/usr/bin/env python3
"""Independent oracle over the demo 1C ledger (shared/demo-ledger).

Implements the definitions of shared/demo-ledger/README.md ("What the figures mean")
directly over data/*.json, with Decimal arithmetic only. It shares no code with the bot.

Library use (build.py):   from oracle import Ledger; L = Ledger(data_dir)
Command line:             python3 oracle.py [--data DIR] [--org NAME] COMMAND ...
  receivables  --date D [--account 62]
  payables     --date D [--account 60]
  snapshot     --date D --account A
  saldo        --date D --cp NAME|INN [--account 62]
  open-items   --date D (--cp NAME|INN | --contract NUMBER [--cp ...]) [--account A]
  documents    --from D1 --to D2 (--cp ... | --contract ...) [--type T ...]
  bank-ops     --from D1 --to D2 --cp ... [--direction in|out]
  sheet        --from D1 --to D2 [--account A] [--cp ...] [--detail counterparty|contract]
  card         --from D1 --to D2 --account A [--cp ...]
  bp-split     --date D [--account 62|60]   BP's debt/advance split per counterparty
Dates are YYYY-MM-DD; a balance "at D" includes everything up to the end of day D.

The turnover sheet (ОСВ) and the account card are not in the demo ledger's README; this oracle
computes them by BP 3.0's rules, as the answer set's README states them:
  - period [D1, D2]: the opening balance counts movements before the start of D1, the
    turnovers those from D1 to the end of D2, the closing balance both;
  - a line's balance is split into debit and credit: for 60, 62, 76 and their sub-accounts by
    each (sub-account, counterparty, contract) separately — a debit balance of one contract and
    a credit balance of another both show ("развёрнутое сальдо"); for any other account the net
    balance is placed by the account's kind: active -> always debit (negative when red), passive
    -> always credit, active-passive -> on its side;
  - a synthetic account (the code before the first dot, e.g. 90 for 90.01.1) adds its
    sub-accounts' lines for 60/62/76, and places its own net balance by its kind otherwise (the
    kind of the chart, or the one its sub-accounts share, else active-passive);
  - the total adds the synthetic accounts' lines; over the whole chart its debit and credit
    columns are equal;
  - the card: the collapsed opening balance, every posting with the account (and the
    counterparty, when given) on a side in date order, its running balance, and the closing
    balance = opening + debit turnover - credit turnover.
"""
import argparse
import json
import os
import sys
from collections import defaultdict
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(os.path.join(HERE, "../../../../shared/demo-ledger/data"))

CP = "Контрагенты"
CONTRACT = "ДоговорыКонтрагентов"
SETTLEMENT_DOC = "ДокументыРасчетовСКонтрагентами"
BANK_IN = "ПоступлениеНаРасчетныйСчет"
BANK_OUT = "СписаниеСРасчетногоСчета"
BANK_TYPES = (BANK_IN, BANK_OUT)
ZERO = Decimal("0")


def money(x):
    """JSON number (parsed as Decimal, never float) -> Decimal exact to the kopeck."""
    return Decimal(str(x)).quantize(Decimal("0.01"))


def fmt(x):
    """Decimal -> '1234567.89' (plain dot decimal, 2 places)."""
    return str(Decimal(x).quantize(Decimal("0.01")))


def matches(code, account):
    """README 'Account match': 62 matches 62, 62.01, 62.02; 62.01 matches 62.01 and 62.01.x."""
    return code == account or code.startswith(account + ".")


def end_of_day(date):
    return date + "T23:59:59"


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=Decimal)


class Ledger:
    def __init__(self, data_dir=DEFAULT_DATA):
        self.data_dir = data_dir
        self.orgs = _load(os.path.join(data_dir, "organizations.json"))
        self.cps = _load(os.path.join(data_dir, "counterparties.json"))
        self.contracts = _load(os.path.join(data_dir, "contracts.json"))
        self.docs = _load(os.path.join(data_dir, "documents.json"))
        self.chart = {a["code"]: a for a in _load(os.path.join(data_dir, "chart_of_accounts.json"))}
        self.doc_by_ref = {d["ref"]: d for d in self.docs}
        self.cp_by_ref = {c["ref"]: c for c in self.cps}
        self.contract_by_ref = {c["ref"]: c for c in self.contracts}
        self.default_org = next(o for o in self.orgs if o["default"])
        # Only movements of posted documents count (README); the join makes that explicit
        # even though the committed data has movements for posted documents only.
        self.moves = []
        for m in _load(os.path.join(data_dir, "movements.json")):
            doc = self.doc_by_ref.get(m["recorder_ref"])
            if doc is None or not doc["posted"] or doc["deletion_mark"]:
                continue
            m = dict(m)
            m["amount"] = money(m["amount"])
            self.moves.append(m)

    # ---------------------------------------------------------------- lookups
    def org(self, name=None):
        """Organization ref: the default one when name is None."""
        if name is None:
            return self.default_org["ref"]
        for o in self.orgs:
            if o["name"] == name or o["inn"] == name or o["ref"] == name:
                return o["ref"]
        raise KeyError("no organization %r" % name)

    def cp(self, key):
        """Counterparty ref by exact catalog name, INN (live record preferred) or ref."""
        hits = [c for c in self.cps if key in (c["name"], c["ref"], c["inn"])]
        live = [c for c in hits if not c["deletion_mark"]]
        hits = live or hits
        if len(hits) != 1:
            raise KeyError("counterparty %r: %d matches" % (key, len(hits)))
        return hits[0]["ref"]

    def cp_name(self, ref):
        return self.cp_by_ref[ref]["name"]

    def contract(self, number, cp=None, org=None):
        """Contract ref by number (and owner when the number is shared)."""
        hits = [c for c in self.contracts if c["number"] == number]
        if cp is not None:
            cpref = self.cp(cp)
            hits = [c for c in hits if c["owner_ref"] == cpref]
        if org is not None:
            hits = [c for c in hits if c["organization_ref"] == self.org(org)]
        if len(hits) != 1:
            raise KeyError("contract %r: %d matches" % (number, len(hits)))
        return hits[0]["ref"]

    # ------------------------------------------------------------- internals
    @staticmethod
    def _sub(subconto, kind):
        for s in subconto:
            if s["kind"] == kind:
                return s["ref"]
        return None

    def _sides(self, account, date, org):
        """Yield (sign, subconto, movement) for every side of a movement on a matched account,
        in scope, up to the end of day `date`. sign is +1 debit, -1 credit."""
        limit = end_of_day(date)
        orgref = self.org(org)
        for m in self.moves:
            if m["organization_ref"] != orgref or m["period"] > limit:
                continue
            if matches(m["account_dr"], account):
                yield 1, m["subconto_dr"], m
            if matches(m["account_cr"], account):
                yield -1, m["subconto_cr"], m

    def has_cp_subconto(self, account):
        """60, 62, 76 and their sub-accounts (README); decided from the chart of accounts."""
        root = account.split(".")[0]
        return root in ("60", "62", "76")

    # ------------------------------------------------------------- figures
    def balance(self, account, date, org=None):
        """Collapsed balance at D: debit minus credit. Positive = debit balance."""
        return sum((s * m["amount"] for s, _, m in self._sides(account, date, org)), ZERO)

    def cp_saldos(self, account, date, org=None):
        """Counterparty saldo on the account: movements whose side carries the counterparty."""
        out = defaultdict(lambda: ZERO)
        for s, sub, m in self._sides(account, date, org):
            ref = self._sub(sub, CP)
            if ref is not None:
                out[ref] += s * m["amount"]
        return dict(out)

    def cp_saldo(self, cp, account, date, org=None):
        return self.cp_saldos(account, date, org).get(self.cp(cp), ZERO)

    def doc_turnovers(self, account, date, org=None, cp=None, contract=None):
        """Per settlement document: [debit turnover, credit turnover] up to D."""
        cpref = self.cp(cp) if cp is not None else None
        out = defaultdict(lambda: [ZERO, ZERO])
        for s, sub, m in self._sides(account, date, org):
            if cpref is not None and self._sub(sub, CP) != cpref:
                continue
            if contract is not None and self._sub(sub, CONTRACT) != contract:
                continue
            doc = self._sub(sub, SETTLEMENT_DOC)
            if doc is None:
                continue
            out[(doc, self._sub(sub, CP))][0 if s > 0 else 1] += m["amount"]
        return dict(out)

    def _doc_counts(self, account, date, org):
        counts = defaultdict(int)
        for (doc, cpref), (dr, cr) in self.doc_turnovers(account, date, org).items():
            if dr - cr != ZERO:
                counts[cpref] += 1
        return counts

    def receivables(self, date, account="62", org=None):
        """Debtors: counterparties with saldo > 0, biggest first."""
        counts = self._doc_counts(account, date, org)
        rows = [
            {"counterparty": self.cp_name(ref), "amount": v, "doc_count": counts.get(ref, 0)}
            for ref, v in self.cp_saldos(account, date, org).items() if v > 0
        ]
        rows.sort(key=lambda r: (-r["amount"], r["counterparty"]))
        return {"rows": rows, "total": sum((r["amount"] for r in rows), ZERO)}

    def bp_split(self, date, account="62", org=None):
        """BP's «Задолженность покупателей / поставщикам»: per counterparty, the balance of each
        (sub-account, contract) pair taken apart — pairs owed to the side the report is about
        add to debt, the others to advances (62: a debit balance is the customer's debt; 60: a
        credit balance is our debt). Only counterparties where some advance offsets debt."""
        payables = account.split(".")[0] == "60"
        pairs = defaultdict(lambda: ZERO)
        for s, sub, m in self._sides(account, date, org):
            ref = self._sub(sub, CP)
            if ref is None:
                continue
            code = m["account_dr"] if s > 0 else m["account_cr"]
            pairs[(ref, code, self._sub(sub, CONTRACT))] += s * m["amount"]
        out = {}
        for (ref, _, _), v in pairs.items():
            if payables:
                v = -v
            row = out.setdefault(self.cp_name(ref), {"debt": ZERO, "advance": ZERO, "saldo": ZERO})
            row["saldo"] += v
            if v > 0:
                row["debt"] += v
            else:
                row["advance"] -= v
        return {name: r for name, r in sorted(out.items()) if r["advance"] != ZERO}

    def payables(self, date, account="60", org=None):
        """Creditors: counterparties with -saldo > 0, biggest first."""
        counts = self._doc_counts(account, date, org)
        rows = [
            {"counterparty": self.cp_name(ref), "amount": -v, "doc_count": counts.get(ref, 0)}
            for ref, v in self.cp_saldos(account, date, org).items() if v < 0
        ]
        rows.sort(key=lambda r: (-r["amount"], r["counterparty"]))
        return {"rows": rows, "total": sum((r["amount"] for r in rows), ZERO)}

    def snapshot(self, account, date, org=None):
        """Account balance snapshot: expanded by counterparty for 60/62/76, collapsed otherwise."""
        if self.has_cp_subconto(account):
            saldos = self.cp_saldos(account, date, org).values()
            debit = sum((v for v in saldos if v > 0), ZERO)
            credit = -sum((v for v in saldos if v < 0), ZERO)
            # Movements on the account without a counterparty would be lost by the expansion;
            # the data has none, but check rather than assume.
            assert debit - credit == self.balance(account, date, org), account
        else:
            net = self.balance(account, date, org)
            debit, credit = (net, ZERO) if net >= 0 else (ZERO, -net)
        return {"debit_balance": debit, "credit_balance": credit, "net_balance": debit - credit}

    def snapshot_by_subaccount(self, account, date, org=None):
        """Alternative reading (1C ОСВ 'по субсчетам'): expand each sub-account separately
        and add up. Used only to flag where it differs from the README's reading."""
        subs = sorted({m["account_dr"] for m in self.moves if matches(m["account_dr"], account)} |
                      {m["account_cr"] for m in self.moves if matches(m["account_cr"], account)})
        leaves = [a for a in subs if not any(b != a and b.startswith(a + ".") for b in subs)]
        debit = credit = ZERO
        for a in leaves:
            s = self.snapshot(a, date, org)
            debit += s["debit_balance"]
            credit += s["credit_balance"]
        return {"debit_balance": debit, "credit_balance": credit, "net_balance": debit - credit}

    def open_items(self, date, cp=None, contract=None, accounts=("60", "62"), org=None):
        """Open items: per settlement document with a saldo other than zero on the account."""
        items = []
        for acc in accounts:
            for (doc, _), (dr, cr) in self.doc_turnovers(acc, date, org, cp=cp, contract=contract).items():
                if dr - cr != ZERO:
                    d = self.doc_by_ref[doc]
                    items.append({"account": acc, "doc": doc, "type": d["type"], "number": d["number"],
                                  "date": d["date"][:10], "debit": dr, "credit": cr, "open_amount": dr - cr})
        items.sort(key=lambda i: (i["account"], i["date"], i["number"]))
        per_account = defaultdict(lambda: ZERO)
        for i in items:
            per_account[i["account"]] += i["open_amount"]
        return {"items": items, "count": len(items), "by_account": dict(per_account)}

    def documents(self, date_from, date_to, cp=None, contract=None, types=None, org=None):
        """Documents of a counterparty / a contract over [from, to] (whole days),
        deletion-marked left out, unposted kept."""
        cpref = self.cp(cp) if cp is not None else None
        orgref = self.org(org)
        out = []
        for d in self.docs:
            if d["deletion_mark"] or d["organization_ref"] != orgref:
                continue
            if not (date_from <= d["date"][:10] <= date_to):
                continue
            if cpref is not None and d["counterparty_ref"] != cpref:
                continue
            if contract is not None and d["contract_ref"] != contract:
                continue
            if types is not None and d["type"] not in types:
                continue
            out.append(d)
        out.sort(key=lambda d: (d["date"], d["number"]))
        return out

    def bank_ops(self, date_from, date_to, cp=None, contract=None, direction=None, org=None):
        """Bank operations (ПоступлениеНаРасчетныйСчет / СписаниеСРасчетногоСчета)."""
        types = {"in": (BANK_IN,), "out": (BANK_OUT,), None: BANK_TYPES}[direction]
        docs = self.documents(date_from, date_to, cp=cp, contract=contract, types=types, org=org)
        s_in = sum((money(d["amount"]) for d in docs if d["type"] == BANK_IN), ZERO)
        s_out = sum((money(d["amount"]) for d in docs if d["type"] == BANK_OUT), ZERO)
        return {"docs": docs, "count": len(docs), "sum": s_in + s_out, "sum_in": s_in, "sum_out": s_out,
                "count_in": sum(1 for d in docs if d["type"] == BANK_IN),
                "count_out": sum(1 for d in docs if d["type"] == BANK_OUT)}


    # ----------------------------------------------------- the reports of a period
    EXPANDED_ROOTS = ("60", "62", "76")

    def _expanded(self, code):
        return code.split(".")[0] in self.EXPANDED_ROOTS

    def _kind(self, code, leaves=()):
        if code in self.chart:
            return self.chart[code]["type"]
        kinds = {self.chart[l]["type"] for l in leaves if l in self.chart}
        return kinds.pop() if len(kinds) == 1 else "active_passive"

    @staticmethod
    def _place(kind, net):
        if kind == "active":
            return net, ZERO
        if kind == "passive":
            return ZERO, -net
        return (net, ZERO) if net > 0 else (ZERO, -net)

    def period_cells(self, date_from, date_to, account=None, org=None, cp=None):
        """Per (account, counterparty, contract) of the sides in scope: [opening net, debit
        turnover, credit turnover] over the period."""
        orgref = self.org(org)
        cpref = self.cp(cp) if cp is not None else None
        start, limit = date_from + "T00:00:00", end_of_day(date_to)
        cells = defaultdict(lambda: [ZERO, ZERO, ZERO])
        for m in self.moves:
            if m["organization_ref"] != orgref or m["period"] > limit:
                continue
            for sign, acc, sub in ((1, m["account_dr"], m["subconto_dr"]), (-1, m["account_cr"], m["subconto_cr"])):
                if account is not None and not matches(acc, account):
                    continue
                if cpref is not None and self._sub(sub, CP) != cpref:
                    continue
                c = cells[(acc, self._sub(sub, CP), self._sub(sub, CONTRACT))]
                if m["period"] < start:
                    c[0] += sign * m["amount"]
                elif sign > 0:
                    c[1] += m["amount"]
                else:
                    c[2] += m["amount"]
        return dict(cells)

    @staticmethod
    def _line(cells, split):
        """A sheet line from cells: balances split per cell (split=True) or netted first."""
        line = dict(open_dt=ZERO, open_kt=ZERO, dt=ZERO, kt=ZERO, close_dt=ZERO, close_kt=ZERO)
        for o, d, k in cells:
            line["dt"] += d
            line["kt"] += k
            for key, v in (("open", o), ("close", o + d - k)):
                if split:
                    line[key + "_dt"] += v if v > 0 else ZERO
                    line[key + "_kt"] += -v if v < 0 else ZERO
                else:
                    line[key + "_dt"] += v  # the net, placed later
        return line

    def _placed(self, line, kind):
        for key in ("open", "close"):
            net = line[key + "_dt"] - line[key + "_kt"]
            line[key + "_dt"], line[key + "_kt"] = self._place(kind, net)
        return line

    def sheet(self, date_from, date_to, account=None, org=None, cp=None, detail=None):
        """The turnover sheet: lines per synthetic account (or the account asked for) with their
        sub-accounts, or one account's lines per counterparty or contract; and the total."""
        cells = {k: v for k, v in self.period_cells(date_from, date_to, account, org, cp).items() if v != [ZERO, ZERO, ZERO]}
        if detail is not None:
            assert account is not None
            groups = defaultdict(list)
            for (acc, c, ctr), v in cells.items():
                key = (self.cp_name(c) if c else None, ctr if detail == "contract" else None)
                groups[key].append(v)
            expanded = self._expanded(account)
            kind = self._kind(account, [a for a, _, _ in cells])
            lines = []
            for (name, ctr), vs in groups.items():
                line = self._line(vs, expanded) if expanded else self._placed(self._line(vs, False), kind)
                line.update(counterparty=name, contract=self.contract_by_ref[ctr]["name"] if ctr else None)
                lines.append(line)
            lines.sort(key=lambda l: (-(abs(l["close_dt"]) + abs(l["close_kt"])), -(l["dt"] + l["kt"]), l["counterparty"] or ""))
            total = self.sheet(date_from, date_to, account, org, cp)["total"]
            return {"lines": lines, "total": total}
        leaves = defaultdict(list)
        for (acc, _, _), v in cells.items():
            leaves[acc].append(v)
        tops = defaultdict(list)
        for acc in leaves:
            tops[account if account is not None else acc.split(".")[0]].append(acc)
        lines = []
        total = dict(open_dt=ZERO, open_kt=ZERO, dt=ZERO, kt=ZERO, close_dt=ZERO, close_kt=ZERO)
        for top in sorted(tops):
            subs = sorted(tops[top])
            sublines = []
            for acc in subs:
                if self._expanded(acc):
                    line = self._line(leaves[acc], True)
                else:
                    line = self._placed(self._line(leaves[acc], False), self._kind(acc))
                line["account"] = acc
                sublines.append(line)
            if self._expanded(top):
                head = dict(open_dt=ZERO, open_kt=ZERO, dt=ZERO, kt=ZERO, close_dt=ZERO, close_kt=ZERO)
                for sl in sublines:
                    for k in head:
                        head[k] += sl[k]
            else:
                head = self._placed(self._line([v for acc in subs for v in leaves[acc]], False), self._kind(top, subs))
            head["account"] = top
            head["subaccounts"] = [] if subs == [top] else sublines
            lines.append(head)
            for k in total:
                total[k] += head[k]
        return {"lines": lines, "total": total}

    def card(self, date_from, date_to, account, org=None, cp=None):
        """The account card: opening balance, postings with their running balance, turnovers,
        closing balance (all collapsed: debit minus credit)."""
        orgref = self.org(org)
        cpref = self.cp(cp) if cp is not None else None
        start, limit = date_from + "T00:00:00", end_of_day(date_to)
        opening = ZERO
        postings = []
        for m in self.moves:
            if m["organization_ref"] != orgref or m["period"] > limit:
                continue
            dr = matches(m["account_dr"], account) and (cpref is None or self._sub(m["subconto_dr"], CP) == cpref)
            cr = matches(m["account_cr"], account) and (cpref is None or self._sub(m["subconto_cr"], CP) == cpref)
            if not dr and not cr:
                continue
            debit = m["amount"] if dr else ZERO
            credit = m["amount"] if cr else ZERO
            if m["period"] < start:
                opening += debit - credit
            else:
                doc = self.doc_by_ref[m["recorder_ref"]]
                postings.append({"period": m["period"], "number": doc["number"], "line": m["line"], "debit": debit, "credit": credit})
        postings.sort(key=lambda p: (p["period"], p["number"], p["line"]))
        running = opening
        for p in postings:
            running += p["debit"] - p["credit"]
            p["balance"] = running
        dt = sum((p["debit"] for p in postings), ZERO)
        kt = sum((p["credit"] for p in postings), ZERO)
        return {"opening": opening, "debit": dt, "credit": kt, "closing": opening + dt - kt,
                "count": len(postings), "postings": postings}

    def act(self, date_from, date_to, cp, org=None, contract=None):
        """The act of reconciliation with cp (and one contract), BP 3.0's «по данным организации»
        (Documents/АктСверкиВзаиморасчетов, УчетВзаиморасчетов.ТекстЗапросаРасчетыСКонтрагентами):
        a side of a movement is on the act when its account is 60, 62, 76 or a sub-account, its
        Контрагенты subconto is cp and it carries a contract (the one asked). The opening balance
        is the sides before the first day, debit less credit; the closing one those up to the
        last day's end. Each document of the period is a line: the movements with exactly one
        side on the act, the debit side to its debit, the credit side to its credit; a movement
        with both sides on the act (an advance offset) moves nothing between the two companies
        and is left out. (The ledger has no returns to suppliers; BP prints those as a negative
        credit.)"""
        orgref = self.org(org)
        cpref = self.cp(cp)
        ctref = self.contract(contract, cp) if contract else None
        start, limit = date_from + "T00:00:00", end_of_day(date_to)

        def on(account, subconto):
            root = account.split(".")[0]
            ct = self._sub(subconto, "ДоговорыКонтрагентов")
            return (root in ("60", "62", "76") and account != "76.НА" and self._sub(subconto, CP) == cpref
                    and ct is not None and (ctref is None or ct == ctref))

        opening = closing = ZERO
        lines = {}
        for m in self.moves:
            if m["organization_ref"] != orgref or m["period"] > limit:
                continue
            dr, cr = on(m["account_dr"], m["subconto_dr"]), on(m["account_cr"], m["subconto_cr"])
            net = (m["amount"] if dr else ZERO) - (m["amount"] if cr else ZERO)
            closing += net
            if m["period"] < start:
                opening += net
                continue
            if dr == cr:
                continue
            doc = self.doc_by_ref[m["recorder_ref"]]
            line = lines.setdefault(m["recorder_ref"], {"date": m["period"], "number": doc["number"], "type": doc["type"],
                                                        "debit": ZERO, "credit": ZERO})
            line["date"] = min(line["date"], m["period"])
            if dr:
                line["debit"] += m["amount"]
            else:
                line["credit"] += m["amount"]
        rows = sorted((l for l in lines.values() if l["debit"] or l["credit"]), key=lambda l: (l["date"], l["number"]))
        dt = sum((l["debit"] for l in rows), ZERO)
        kt = sum((l["credit"] for l in rows), ZERO)
        assert opening + dt - kt == closing, "the act does not add up"
        return {"opening": opening, "debit": dt, "credit": kt, "closing": closing, "count": len(rows), "lines": rows}


# --------------------------------------------------------------------- CLI
def _jsonable(x):
    if isinstance(x, Decimal):
        return fmt(x)
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=DEFAULT_DATA)
    p.add_argument("--org", default=None, help="organization name or INN (default: the default one)")
    p.add_argument("command", choices=["receivables", "payables", "snapshot", "saldo", "open-items",
                                       "documents", "bank-ops", "sheet", "card", "bp-split", "check"])
    p.add_argument("--date")
    p.add_argument("--from", dest="date_from")
    p.add_argument("--to", dest="date_to")
    p.add_argument("--account")
    p.add_argument("--cp")
    p.add_argument("--contract")
    p.add_argument("--type", action="append")
    p.add_argument("--direction", choices=["in", "out"])
    p.add_argument("--detail", choices=["counterparty", "contract"])
    a = p.parse_args(argv)
    L = Ledger(a.data)
    org = a.org
    contract = L.contract(a.contract, a.cp, org) if a.contract else None
    if a.command == "receivables":
        r = L.receivables(a.date, a.account or "62", org)
    elif a.command == "payables":
        r = L.payables(a.date, a.account or "60", org)
    elif a.command == "snapshot":
        r = L.snapshot(a.account, a.date, org)
    elif a.command == "saldo":
        r = {"saldo": L.cp_saldo(a.cp, a.account or "62", a.date, org)}
    elif a.command == "open-items":
        accs = (a.account,) if a.account else ("60", "62")
        r = L.open_items(a.date, cp=None if contract else a.cp, contract=contract, accounts=accs, org=org)
    elif a.command == "documents":
        docs = L.documents(a.date_from, a.date_to, cp=None if contract else a.cp, contract=contract,
                           types=a.type, org=org)
        r = {"count": len(docs), "docs": [{k: d[k] for k in ("type", "number", "date", "posted", "amount")}
                                          for d in docs]}
    elif a.command == "bank-ops":
        r = L.bank_ops(a.date_from, a.date_to, cp=a.cp, direction=a.direction, org=org)
        r["docs"] = [{k: d[k] for k in ("type", "number", "date", "amount")} for d in r["docs"]]
    elif a.command == "sheet":
        r = L.sheet(a.date_from, a.date_to, a.account, org, cp=a.cp, detail=a.detail)
    elif a.command == "card":
        r = L.card(a.date_from, a.date_to, a.account, org, cp=a.cp)
    elif a.command == "bp-split":
        r = L.bp_split(a.date, a.account or "62", org)
    else:
        r = sanity(L)
    json.dump(_jsonable(r), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def sanity(L):
    """Cross-checks between figures that must agree by definition."""
    out = []
    for org in (None, "ООО «Северный ветер Трейд»"):
        for date in ("2024-12-31", "2025-06-30", "2025-12-31", "2026-01-01", "2026-03-31", "2026-04-25"):
            for acc in ("62", "62.01", "62.02", "60", "60.01", "60.02", "76"):
                snap = L.snapshot(acc, date, org)
                rec = L.receivables(date, acc, org)["total"]
                pay = L.payables(date, acc, org)["total"]
                assert rec == snap["debit_balance"], (org, date, acc)
                assert pay == snap["credit_balance"], (org, date, acc)
                assert snap["net_balance"] == L.balance(acc, date, org)
            # the whole register balances: all accounts together net to zero
            roots = {c.split(".")[0] for c in L.chart}
            total = sum((L.balance(r, date, org) for r in roots), ZERO)
            assert total == ZERO, (org, date, total)
            # open items add up to the counterparty saldo
            for c in L.cps:
                if c["deletion_mark"]:
                    continue
                oi = L.open_items(date, cp=c["ref"], org=org)
                for acc in ("60", "62"):
                    assert oi["by_account"].get(acc, ZERO) == L.cp_saldo(c["ref"], acc, date, org), (c["name"], acc)
            out.append("ok %s %s" % (org or "default", date))
        # the turnover sheet and the card: double entry, closing = opening + Дт − Кт, a card
        # closes at the sheet's collapsed balance and at the register's balance of that day
        for d1, d2 in (("2025-01-01", "2025-01-31"), ("2025-01-01", "2025-12-31"), ("2026-01-01", "2026-03-31"),
                       ("2026-03-01", "2026-03-31"), ("2024-12-31", "2024-12-31")):
            sh = L.sheet(d1, d2, org=org)
            t = sh["total"]
            assert t["open_dt"] == t["open_kt"] and t["dt"] == t["kt"] and t["close_dt"] == t["close_kt"], (org, d1, t)
            for line in sh["lines"]:
                for x in [line] + line["subaccounts"]:
                    assert x["close_dt"] - x["close_kt"] == x["open_dt"] - x["open_kt"] + x["dt"] - x["kt"], (org, d1, x)
                    c = L.card(d1, d2, x["account"], org)
                    assert c["closing"] == x["close_dt"] - x["close_kt"] == L.balance(x["account"], d2, org), (org, d1, x["account"])
                    assert c["debit"] == x["dt"] and c["credit"] == x["kt"], (org, d1, x["account"])
            out.append("ok sheet %s %s..%s" % (org or "default", d1, d2))
    return out


if __name__ == "__main__":
    main()
