"""A working chat: analysing sales data with pandas and SQL for a quarterly report, over weeks of sessions."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u

CHAT = Chat(
    name="ws-02-data-analysis",
    sessions=[
        Session(
            "2026-03-23T08:30:00Z",
            [
                u(
                    "Hi. I'm Hanna, I'm a data analyst at Pellworth Home Goods (kitchenware, we sell online "
                    "and through about 40 partner shops in northern Europe). I have to put together the Q1 "
                    "sales report for my manager, Maggie Oyelaran, and I'd like a second pair of hands on the "
                    "pandas and SQL side. The data is in our Postgres warehouse.",
                    key="ku-manager-1",
                ),
                a(
                    "Happy to help. To get oriented, it would be useful to know:\n"
                    "\n"
                    "1. **What the report has to show.** Revenue by region and month? Growth against last "
                    "year or against a target? Product mix?\n"
                    "2. **Where the data lives.** Table or view names, and roughly which columns (order date, "
                    "amount, currency, region, channel, customer).\n"
                    "3. **How you work.** Notebook, scripts, or both? And do you have a read-only user on the "
                    "warehouse?\n"
                    "\n"
                    "If you can paste the column list of the main orders table, I can start with a first "
                    "query that pulls Q1 into a DataFrame so we have something concrete to look at."
                ),
                u(
                    "Revenue by region and month, growth vs last year, and some product mix. Maggie needs it "
                    "by April 17. Jupyter for exploring, then a script for the final numbers.",
                    key="ku-deadline-1",
                ),
                a(
                    "That's a comfortable amount of time for a first quarterly report if the data is in "
                    "reasonable shape. A plan that usually works:\n"
                    "\n"
                    "- **This week:** pull Q1 and Q1 last year, check the data for problems (duplicates, test "
                    'orders, refunds, currency), agree definitions with Maggie, especially what "revenue" '
                    "means: gross or net, with or without shipping, with or without VAT.\n"
                    "- **Next week:** the numbers themselves, region by month, growth, product mix.\n"
                    "- **The week after:** charts and the written summary, with a couple of days of buffer.\n"
                    "\n"
                    'Agreeing the revenue definition early is the single most useful thing. Most "the '
                    "numbers don't match\" conversations come from two people using two definitions."
                ),
                u(
                    "One thing before we start: always write SQL keywords in uppercase, and put each selected "
                    "column on its own line. Our team lead reviews every query that goes into a report and "
                    "she's particular.",
                    key="si-sql",
                ),
                a(
                    "Understood, that's easier to review anyway. Something like this, as a first look at the "
                    "shape of the data:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    order_id,\n"
                    "    order_ts,\n"
                    "    customer_id,\n"
                    "    region,\n"
                    "    channel,\n"
                    "    currency,\n"
                    "    gross_amount,\n"
                    "    discount_amount,\n"
                    "    net_amount,\n"
                    "    status\n"
                    "FROM sales.orders_v\n"
                    "WHERE order_ts >= '2026-01-01'\n"
                    "  AND order_ts < '2026-04-01'\n"
                    "LIMIT 20;\n"
                    "```\n"
                    "\n"
                    "I've guessed the column names; replace them with the real ones. Using `>=` the first day "
                    "and `<` the day after the last day, instead of `BETWEEN`, avoids losing orders on 31 "
                    "March after midnight if `order_ts` is a timestamp."
                ),
                u(
                    "close! the real columns:\n"
                    "\n"
                    "```\n"
                    " column_name      | data_type\n"
                    "------------------+-----------------------------\n"
                    " order_id         | bigint\n"
                    " order_ts         | timestamp with time zone\n"
                    " customer_id      | bigint\n"
                    " region           | text\n"
                    " country_code     | character(2)\n"
                    " channel          | text\n"
                    " currency         | character(3)\n"
                    " gross_amount     | numeric(12,2)\n"
                    " discount_amount  | numeric(12,2)\n"
                    " shipping_amount  | numeric(12,2)\n"
                    " net_amount       | numeric(12,2)\n"
                    " status           | text\n"
                    " store_id         | integer\n"
                    "```\n"
                    "\n"
                    "The view is sales.orders_v, Ravi in data engineering owns it. store_id is null for web "
                    "orders.",
                    key="sf-ravi",
                ),
                a(
                    "Good, that's a tidy view. Two things I'd want to know before trusting `net_amount`:\n"
                    "\n"
                    "- **Is `net_amount` = `gross_amount - discount_amount`,** or does it also take off "
                    "shipping or VAT? Easy to check:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    COUNT(*) AS orders,\n"
                    "    SUM(CASE WHEN net_amount = gross_amount - discount_amount THEN 1 ELSE 0 END) AS "
                    "net_is_gross_minus_discount,\n"
                    "    SUM(CASE WHEN net_amount = gross_amount - discount_amount - shipping_amount THEN 1 "
                    "ELSE 0 END) AS net_excludes_shipping\n"
                    "FROM sales.orders_v\n"
                    "WHERE order_ts >= '2026-01-01'\n"
                    "  AND order_ts < '2026-04-01';\n"
                    "```\n"
                    "\n"
                    "- **Which values `status` takes.** Cancelled and refunded orders usually need to be "
                    "excluded or netted out:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    status,\n"
                    "    COUNT(*) AS orders,\n"
                    "    SUM(net_amount) AS net\n"
                    "FROM sales.orders_v\n"
                    "WHERE order_ts >= '2026-01-01'\n"
                    "  AND order_ts < '2026-04-01'\n"
                    "GROUP BY status\n"
                    "ORDER BY orders DESC;\n"
                    "```\n"
                    "\n"
                    "Paste the results and we'll know what we're dealing with."
                ),
                u(
                    "```\n"
                    " orders | net_is_gross_minus_discount | net_excludes_shipping\n"
                    "--------+-----------------------------+-----------------------\n"
                    "  61874 |                       61874 |                  2113\n"
                    "\n"
                    "  status    | orders |     net\n"
                    "------------+--------+-------------\n"
                    " completed  |  58102 | 4771093.40\n"
                    " refunded   |   2291 |  168233.10\n"
                    " cancelled  |   1244 |   97310.55\n"
                    " pending    |    237 |   18991.20\n"
                    "```\n"
                    "\n"
                    "The 2113 are orders with zero shipping I guess"
                ),
                a(
                    "Right: those 2113 match both formulas only because their shipping is zero. So "
                    "`net_amount` is gross minus discount and **includes** shipping in neither direction; "
                    "shipping sits in its own column. Good to know for the definition talk with Maggie.\n"
                    "\n"
                    "For status, a common definition is: count `completed`, subtract `refunded`, ignore "
                    "`cancelled` and `pending`. Whether refunds should be netted out in the month of the "
                    "order or the month of the refund is another question for Maggie; for a quarterly view "
                    "the difference is usually small except around the quarter boundary."
                ),
                u(
                    "OK. How do I get this into pandas without hammering the warehouse every time I rerun the "
                    "notebook? It's a replica but data engineering still gets grumpy."
                ),
                a(
                    "Pull once, cache to Parquet, and read the cache on every rerun unless you ask for a "
                    "refresh:\n"
                    "\n"
                    "```python\n"
                    "# load_orders.py\n"
                    "from pathlib import Path\n"
                    "\n"
                    "import pandas as pd\n"
                    "from sqlalchemy import create_engine\n"
                    "\n"
                    'CACHE_PATH = "data/cache/orders_q1.parquet"\n'
                    "\n"
                    "QUERY = '''\n"
                    "SELECT\n"
                    "    order_id,\n"
                    "    order_ts,\n"
                    "    customer_id,\n"
                    "    region,\n"
                    "    country_code,\n"
                    "    channel,\n"
                    "    currency,\n"
                    "    gross_amount,\n"
                    "    discount_amount,\n"
                    "    shipping_amount,\n"
                    "    net_amount,\n"
                    "    status,\n"
                    "    store_id\n"
                    "FROM sales.orders_v\n"
                    "WHERE order_ts >= %(start)s\n"
                    "  AND order_ts < %(end)s\n"
                    "'''\n"
                    "\n"
                    'def load_orders(start="2025-01-01", end="2026-04-01", refresh=False) -> '
                    "pd.DataFrame:\n"
                    "    cache = Path(CACHE_PATH)\n"
                    "    if cache.exists() and not refresh:\n"
                    "        return pd.read_parquet(cache)\n"
                    "    engine = "
                    'create_engine("postgresql+psycopg://hanna_ro@dw-replica.internal/warehouse")\n'
                    '    df = pd.read_sql(QUERY, engine, params={"start": start, "end": end})\n'
                    "    cache.parent.mkdir(parents=True, exist_ok=True)\n"
                    "    df.to_parquet(cache, index=False)\n"
                    "    return df\n"
                    "```\n"
                    "\n"
                    "I set the default range from January last year so Q1 2025 is in the same file for the "
                    "growth comparison. Parquet keeps the dtypes, including the timezone on `order_ts`, which "
                    "CSV would lose.",
                    key="code-parquet",
                ),
                u(
                    "```\n"
                    "sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: FATAL:  "
                    'no pg_hba.conf entry for host "10.20.4.77", user "hanna_ro", database "warehouse", '
                    "no encryption\n"
                    "```"
                ),
                a(
                    "The server only accepts encrypted connections from your network, and the client didn't "
                    "ask for one. Add `sslmode=require` to the URL:\n"
                    "\n"
                    "```python\n"
                    "engine = create_engine(\n"
                    '    "postgresql+psycopg://hanna_ro@dw-replica.internal/warehouse?sslmode=require"\n'
                    ")\n"
                    "```\n"
                    "\n"
                    "If it then complains about the password, put it in `~/.pgpass` (mode 600) rather than in "
                    "the notebook:\n"
                    "\n"
                    "```text\n"
                    "dw-replica.internal:5432:warehouse:hanna_ro:your-password-here\n"
                    "```"
                ),
                u("that worked. 1.3M rows for the five quarters, 9 seconds to pull, 0.4 s from the cache."),
                a(
                    "Nice. Before anything else, let's check the obvious things in the data: duplicate "
                    "`order_id`s, unexpected `region` values, nulls in places they shouldn't be. A quick "
                    "profile:\n"
                    "\n"
                    "```python\n"
                    "df = load_orders()\n"
                    "print(df.dtypes)\n"
                    'print(df["order_id"].duplicated().sum(), "duplicated order ids")\n'
                    'print(df["region"].value_counts(dropna=False))\n'
                    'print(df["currency"].value_counts(dropna=False))\n'
                    "print(df.isna().sum()[lambda s: s > 0])\n"
                    "```"
                ),
                u("will run it tomorrow, it's late and the cat has decided my keyboard is a bed. thanks!"),
                a("Sounds good. Good night to you and the cat."),
            ],
        ),
        Session(
            "2026-03-25T19:10:00Z",
            [
                u(
                    "Ran the profile:\n"
                    "\n"
                    "```\n"
                    "412 duplicated order ids\n"
                    "region\n"
                    "Nordics    512330\n"
                    "DACH       401877\n"
                    "Benelux    236040\n"
                    "UK         149812\n"
                    "NaN           318\n"
                    "Name: count, dtype: int64\n"
                    "currency\n"
                    "EUR    802144\n"
                    "SEK    311560\n"
                    "NOK    115401\n"
                    "GBP    149812\n"
                    "```\n"
                    "\n"
                    "So: duplicate order IDs, 412 of them, and 318 rows with no region. The duplicates look "
                    "like the same order twice with identical values, I think from the sync job re-running in "
                    "January.",
                    key="mt-issue-1",
                ),
                a(
                    "Worth confirming they're true duplicates (every column equal) before dropping them, "
                    "since a duplicate id with *different* values would be a different problem, for example "
                    "an order updated after a refund:\n"
                    "\n"
                    "```python\n"
                    'dupes = df[df["order_id"].duplicated(keep=False)]\n'
                    "identical = dupes.duplicated(keep=False)\n"
                    'print(len(dupes), "rows share an id;", identical.sum(), "of them are exact copies")\n'
                    'print(dupes.loc[~identical].sort_values("order_id").head(10))\n'
                    "```\n"
                    "\n"
                    "If all of them are exact copies, `drop_duplicates()` is safe. For the 318 rows without a "
                    "region, look at `country_code`: if it's set, you can derive the region from a small "
                    "mapping rather than dropping revenue.\n"
                    "\n"
                    "```python\n"
                    'print(df.loc[df["region"].isna(), ["country_code", "channel", '
                    '"order_ts"]].value_counts().head(10))\n'
                    "```"
                ),
                u(
                    "Rule for pandas code: never use inplace=True. I got bitten by it returning None once and "
                    "lost an afternoon.",
                    key="si-inplace",
                ),
                a(
                    "Noted, everything will be plain assignment or method chains. For the duplicates and the "
                    "missing regions, for example:\n"
                    "\n"
                    "```python\n"
                    "REGION_BY_COUNTRY = {\n"
                    '    "SE": "Nordics", "NO": "Nordics", "DK": "Nordics", "FI": "Nordics",\n'
                    '    "DE": "DACH", "AT": "DACH", "CH": "DACH",\n'
                    '    "NL": "Benelux", "BE": "Benelux", "LU": "Benelux",\n'
                    '    "GB": "UK",\n'
                    "}\n"
                    "\n"
                    "orders = (\n"
                    "    df.drop_duplicates()\n"
                    "      .assign(region=lambda d: "
                    'd["region"].fillna(d["country_code"].map(REGION_BY_COUNTRY)))\n'
                    ")\n"
                    'print(len(df) - len(orders), "duplicate rows removed")\n'
                    'print(orders["region"].isna().sum(), "rows still without a region")\n'
                    "```\n"
                    "\n"
                    "A chain like this also reads top to bottom as the list of cleaning steps, which helps "
                    "when someone asks later what was done to the data."
                ),
                u(
                    "All 412 are exact copies, dropped. The missing regions were all country_code DK, fixed "
                    "by the mapping. \n"
                    "\n"
                    "Next problem: currencies. Maggie wants everything in EUR. Finance gave me monthly "
                    "average rates in a CSV:\n"
                    "\n"
                    "```\n"
                    "month,currency,eur_per_unit\n"
                    "2025-01,SEK,0.0871\n"
                    "2025-01,NOK,0.0843\n"
                    "2025-01,GBP,1.1914\n"
                    "...\n"
                    "2026-03,SEK,0.0902\n"
                    "2026-03,NOK,0.0861\n"
                    "2026-03,GBP,1.1987\n"
                    "```"
                ),
                a(
                    "Monthly rates means we join on the order's month and currency, and EUR orders get a rate "
                    "of 1:\n"
                    "\n"
                    "```python\n"
                    "def normalise_currency(orders: pd.DataFrame, rates: pd.DataFrame) -> pd.DataFrame:\n"
                    "    # EUR columns for the money fields, at the monthly average rate of the order's month\n"
                    '    rates = rates.assign(month=pd.PeriodIndex(rates["month"], freq="M"))\n'
                    "    out = (\n"
                    '        orders.assign(month=orders["order_ts"].dt.tz_convert("Europe/Stockh'
                    'olm").dt.to_period("M"))\n'
                    '              .merge(rates, on=["month", "currency"], how="left", '
                    'validate="many_to_one")\n'
                    '              .assign(eur_per_unit=lambda d: d["eur_per_unit"].where(d["currency"] '
                    '!= "EUR", 1.0))\n'
                    "    )\n"
                    '    missing = out["eur_per_unit"].isna()\n'
                    "    if missing.any():\n"
                    "        raise ValueError(f\"no rate for {out.loc[missing, ['month', "
                    "'currency']].drop_duplicates().to_dict('records')}\")\n"
                    '    for col in ["gross_amount", "discount_amount", "shipping_amount", '
                    '"net_amount"]:\n'
                    '        out[f"{col}_eur"] = (out[col].astype(float) * out["eur_per_unit"]).round(2)\n'
                    "    return out\n"
                    "```\n"
                    "\n"
                    "`normalise_currency` returns a new frame and leaves the input alone. Details that "
                    "matter:\n"
                    "\n"
                    '- `validate="many_to_one"` makes pandas raise if the rates file ever has two rows for '
                    "the same month and currency, which would silently duplicate orders.\n"
                    "- The month is taken in Stockholm time, so an order placed at 00:30 on 1 February local "
                    "time counts as February even though it's 31 January in UTC. Use whichever timezone "
                    "finance uses for its month boundaries.\n"
                    "- Raising on a missing rate is deliberate: a silent NaN would quietly drop revenue from "
                    "every sum.",
                    key="code-fx",
                ),
                u(
                    "```\n"
                    "TypeError: unsupported operand type(s) for *: 'decimal.Decimal' and 'float'\n"
                    "```\n"
                    "\n"
                    "on the multiplication line, even with astype(float)?"
                ),
                a(
                    "Look again at the line: `astype(float)` converts the amount column, but `eur_per_unit` "
                    "itself can still be `object` dtype if the CSV column was read with a stray non-numeric "
                    "value, or if the `where(..., 1.0)` mixed types. Check both:\n"
                    "\n"
                    "```python\n"
                    'print(out[["net_amount", "eur_per_unit"]].dtypes)\n'
                    'print(out["eur_per_unit"].map(type).value_counts())\n'
                    "```\n"
                    "\n"
                    "Most likely it's the amounts: `numeric` columns from Postgres come through `read_sql` as "
                    "Python `Decimal` objects in an `object` column, and Parquet preserved that. Convert them "
                    "once at load time instead of in every function:\n"
                    "\n"
                    "```python\n"
                    'MONEY = ["gross_amount", "discount_amount", "shipping_amount", "net_amount"]\n'
                    'orders = orders.astype({c: "float64" for c in MONEY})\n'
                    "```\n"
                    "\n"
                    "Float is fine for reporting sums to the cent at this size; the rounding error over a "
                    "million rows is far below a cent."
                ),
                u(
                    "yep it was object dtype from the parquet. fixed at load. Growth: Maggie said the target "
                    "for Q1 was 8% growth over Q1 last year, so the report should show actual vs that.",
                    key="ku-target-1",
                ),
                a(
                    "Then the headline table is, per region: Q1 2025 net revenue, Q1 2026 net revenue, growth "
                    "in percent, and the gap to target in percentage points.\n"
                    "\n"
                    "```python\n"
                    "def growth_by_region(orders_eur: pd.DataFrame, target: float) -> pd.DataFrame:\n"
                    '    q = orders_eur.assign(quarter=orders_eur["month"].dt.qyear.astype(str) + "Q" + '
                    'orders_eur["month"].dt.quarter.astype(str))\n'
                    '    completed = q[q["status"] == "completed"]\n'
                    "    pivot = (\n"
                    '        completed.pivot_table(index="region", columns="quarter", '
                    'values="net_amount_eur", aggfunc="sum")\n'
                    '                 .loc[:, ["2025Q1", "2026Q1"]]\n'
                    "    )\n"
                    "    return pivot.assign(\n"
                    '        growth=lambda t: t["2026Q1"] / t["2025Q1"] - 1,\n'
                    '        gap_pp=lambda t: (t["growth"] - target) * 100,\n'
                    '    ).sort_values("growth", ascending=False)\n'
                    "```\n"
                    "\n"
                    "Pass the target as a fraction (`0.08` for eight percent) so there's no confusion between "
                    "8 and 0.08 downstream. Refunds are still left out here; we'll add them once Maggie "
                    "decides how to treat them."
                ),
                u(
                    "Thanks. Off topic but do you know if there's a keyboard shortcut in Jupyter to collapse "
                    "all cell outputs? My notebook is a wall of printouts."
                ),
                a(
                    "In JupyterLab: **View → Collapse All Outputs**, and you can bind it to a key under "
                    'Settings → Settings Editor → Keyboard Shortcuts (search "collapse-all-outputs"). In '
                    "the classic notebook, Cell → All Output → Toggle. If the printouts are from exploring, "
                    'it\'s also worth moving the checks into a single "data checks" cell that prints one '
                    "summary line per check."
                ),
                u("good idea. ok stopping here, long day."),
                a(
                    "Good progress: duplicates gone, regions fixed, everything in EUR. Next up is refunds and "
                    "the status question for Maggie."
                ),
            ],
        ),
        Session(
            "2026-03-27T12:45:00Z",
            [
                u(
                    "Lunch break session. Found another thing: there are orders from the QA test account, "
                    "customer_id 100001, that the web team uses to test checkout in production. 1,906 orders "
                    "in Q1 alone, some of them for silly amounts like 9999.99.",
                    key="mt-issue-2",
                ),
                a(
                    "Test accounts in production data are very common, and they tend to multiply: it's worth "
                    "asking the web team whether 100001 is the only one. A quick way to spot others is to "
                    "look for customers with implausible behaviour:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    customer_id,\n"
                    "    COUNT(*) AS orders,\n"
                    "    COUNT(DISTINCT DATE(order_ts)) AS active_days,\n"
                    "    MAX(net_amount) AS max_order,\n"
                    "    SUM(CASE WHEN status = 'cancelled' THEN 1 ELSE 0 END) AS cancelled\n"
                    "FROM sales.orders_v\n"
                    "WHERE order_ts >= '2026-01-01'\n"
                    "  AND order_ts < '2026-04-01'\n"
                    "GROUP BY customer_id\n"
                    "HAVING COUNT(*) > 50\n"
                    "ORDER BY orders DESC\n"
                    "LIMIT 20;\n"
                    "```\n"
                    "\n"
                    "Real customers of a kitchenware shop rarely place more than a handful of orders a "
                    "quarter; anything in the hundreds is either a test account, a B2B customer ordering for "
                    "a shop, or an integration. Keep the exclusions in one list in code, with a comment "
                    "saying who confirmed each one."
                ),
                u(
                    "Only two in the top 20 look weird: 100001 and 100417. Asked the web team, 100417 is the "
                    "payment provider's sandbox user. Both out."
                ),
                a(
                    "```python\n"
                    "# Accounts that aren't customers. Confirmed by the web team, 2026-03-27.\n"
                    "NON_CUSTOMER_IDS = {\n"
                    "    100001,  # QA checkout tests\n"
                    "    100417,  # payment provider sandbox\n"
                    "}\n"
                    "\n"
                    'orders = orders.loc[lambda d: ~d["customer_id"].isin(NON_CUSTOMER_IDS)]\n'
                    "```\n"
                    "\n"
                    "Apply it before the currency conversion, so the rest of the pipeline never sees them. "
                    "It's also worth telling data engineering; if the view filtered them out, the next person "
                    "wouldn't have to rediscover them."
                ),
                u(
                    "Maggie came by. She wants the regional numbers also broken down by sales channel, web vs "
                    "partner shops vs marketplace, because the board keeps asking whether the partner shops "
                    "are worth it.",
                    key="mt-cut-1",
                ),
                a(
                    "`channel` is already in the view, so that's one more grouping level. In SQL, for the "
                    "quarter comparison:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    region,\n"
                    "    channel,\n"
                    "    SUM(CASE WHEN order_ts >= '2025-01-01' AND order_ts < '2025-04-01' THEN net_amount "
                    "ELSE 0 END) AS net_2025q1,\n"
                    "    SUM(CASE WHEN order_ts >= '2026-01-01' AND order_ts < '2026-04-01' THEN net_amount "
                    "ELSE 0 END) AS net_2026q1\n"
                    "FROM sales.orders_v\n"
                    "WHERE status = 'completed'\n"
                    "  AND customer_id NOT IN (100001, 100417)\n"
                    "  AND (\n"
                    "        (order_ts >= '2025-01-01' AND order_ts < '2025-04-01')\n"
                    "     OR (order_ts >= '2026-01-01' AND order_ts < '2026-04-01')\n"
                    "  )\n"
                    "GROUP BY region, channel\n"
                    "ORDER BY region, channel;\n"
                    "```\n"
                    "\n"
                    "That's in local currency though, so the sums mix SEK and EUR. For the report, do the "
                    "same grouping on the converted DataFrame in pandas:\n"
                    "\n"
                    "```python\n"
                    "by_channel = (\n"
                    '    orders_eur[orders_eur["status"] == "completed"]\n'
                    '      .pivot_table(index=["region", "channel"], columns="quarter", '
                    'values="net_amount_eur", aggfunc="sum")\n'
                    '      .loc[:, ["2025Q1", "2026Q1"]]\n'
                    '      .assign(growth=lambda t: t["2026Q1"] / t["2025Q1"] - 1)\n'
                    ")\n"
                    "```"
                ),
                u(
                    "Please skip seaborn in anything you give me. I find its defaults noisy, and plain "
                    "matplotlib is easier for me to tweak afterwards.",
                    key="pref-matplotlib",
                ),
                a(
                    "Understood. The table above doesn't need a chart yet anyway; once the numbers are final "
                    "we can decide which views need one. For now, a quick way to eyeball the pivot in the "
                    "notebook without any charting at all:\n"
                    "\n"
                    "```python\n"
                    "(by_channel\n"
                    "   .style\n"
                    '   .format({"2025Q1": "{:,.0f}", "2026Q1": "{:,.0f}", "growth": "{:+.1%}"})\n'
                    '   .background_gradient(subset=["growth"], cmap="RdBu", vmin=-0.2, vmax=0.2))\n'
                    "```\n"
                    "\n"
                    "The gradient makes the outliers jump out, which is often all you need at this stage."
                ),
                u(
                    "Weird thing: my Q1 2026 completed net for the eurozone orders is 2,746,310 but the "
                    "eurozone sales dashboard in Looker says 2,769,455 for the same period. Difference "
                    "23,145. Same view underneath as far as I know."
                ),
                a(
                    "A gap of about half a percent between two reports on the same view usually comes down to "
                    "one of three things: a filter, a timezone, or a definition. In your case I'd bet on the "
                    "definition. Earlier we established that `net_amount` doesn't include shipping, which "
                    'sits in its own column. If the Looker measure is "net plus shipping fees" or is built '
                    "on `gross_amount - discount_amount + shipping_amount`, it will be a bit higher than "
                    "yours, and the difference will be roughly the shipping fees on completed orders. You can "
                    "test that directly:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    SUM(shipping_amount) AS shipping\n"
                    "FROM sales.orders_v\n"
                    "WHERE status = 'completed'\n"
                    "  AND order_ts >= '2026-01-01'\n"
                    "  AND order_ts < '2026-04-01'\n"
                    "  AND currency = 'EUR';\n"
                    "```\n"
                    "\n"
                    "It's restricted to EUR orders to match the dashboard. If it's close to 23,145, that's "
                    "your answer; if not, check whether Looker still includes the test accounts, which we now "
                    "exclude and which would push the difference the other way.",
                    key="sf-gap",
                ),
                u(
                    "23,140.80. So it's that, plus rounding. Looker includes shipping. I'll tell Maggie we "
                    "report without shipping and add a footnote."
                ),
                a(
                    'Good call, and a footnote is exactly right. Something like: "Net revenue = gross order '
                    "value minus discounts, excluding shipping and VAT, for completed orders, converted to "
                    'EUR at monthly average rates. Test and sandbox accounts excluded." That one sentence '
                    "pre-empts most of the questions you'd otherwise get."
                ),
                u("Nice wording, stealing it. Back to work, lunch is over."),
                a("Enjoy the afternoon."),
            ],
        ),
        Session(
            "2026-03-31T10:20:00Z",
            [
                u(
                    "Maggie decided on refunds: a refunded order is simply not revenue, in the month it was "
                    "placed. So status = 'completed' only, which is what we have. Partial refunds don't exist "
                    "in our system, a refund is always the whole order."
                ),
                a(
                    "That's the simplest rule and easy to explain. One side effect to mention in the report: "
                    "an order placed on 30 March and refunded on 5 April drops out of Q1 only once the refund "
                    "happens, so Q1 numbers pulled today and pulled in two weeks can differ slightly. Pulling "
                    'the final numbers on a fixed date and saying so in the footnote ("data as of …") takes '
                    "care of that.\n"
                    "\n"
                    "With that settled, the headline number is just:\n"
                    "\n"
                    "```python\n"
                    'q1 = orders_eur.loc[lambda d: (d["status"] == "completed") & '
                    '(d["quarter"].isin(["2025Q1", "2026Q1"]))]\n'
                    'totals = q1.groupby("quarter")["net_amount_eur"].sum()\n'
                    'print(totals.map("{:,.0f}".format))\n'
                    "print(f\"growth: {totals['2026Q1'] / totals['2025Q1'] - 1:.2%}\")\n"
                    "```"
                ),
                u(
                    "```\n"
                    "quarter\n"
                    "2025Q1    4,512,077\n"
                    "2026Q1    4,820,561\n"
                    "Name: net_amount_eur, dtype: object\n"
                    "growth: 6.84%\n"
                    "```\n"
                    "\n"
                    "So Q1 2026 total net revenue is €4.82M against €4.51M last year. Below target, Maggie "
                    "won't love that.",
                    key="mt-total",
                ),
                a(
                    "It's still solid growth, and the regional breakdown will show where the gap comes from; "
                    "a quarterly miss is usually one or two regions rather than everything. It's worth having "
                    'that answer ready before Maggie asks "why", so the next step is the gap per region and '
                    "channel. Bringing the `growth_by_region` function from earlier together with the cleaned "
                    "data:\n"
                    "\n"
                    "```python\n"
                    "regions = growth_by_region(orders_eur, target=0.08)\n"
                    'print(regions.round({"growth": 4, "gap_pp": 2}))\n'
                    "```"
                ),
                u(
                    "Also, when you quote figures in prose, round to one decimal and always give the unit "
                    "(k€, %, orders). Your 6.84% above is the kind of precision nobody reads.",
                    key="si-decimal",
                ),
                a(
                    "Fair point, noted. In the same spirit for the code output, format the table for reading "
                    "rather than for precision:\n"
                    "\n"
                    "```python\n"
                    "fmt = regions.assign(\n"
                    '    net_2025q1_k=lambda t: (t["2025Q1"] / 1000).round(1),\n'
                    '    net_2026q1_k=lambda t: (t["2026Q1"] / 1000).round(1),\n'
                    '    growth_pct=lambda t: (t["growth"] * 100).round(1),\n'
                    '    gap_pp=lambda t: t["gap_pp"].round(1),\n'
                    ')[["net_2025q1_k", "net_2026q1_k", "growth_pct", "gap_pp"]]\n'
                    "print(fmt.to_string())\n"
                    "```"
                ),
                u(
                    "Maggie's old reports had a pie chart of revenue by product category on slide 3. Personal "
                    "thing: I can't stand pie charts. If it's a share of something, give me a horizontal bar "
                    "chart sorted by size.",
                    key="pref-nopie",
                ),
                a(
                    "Noted. The category split needs data we haven't pulled yet, though: `orders_v` has no "
                    "product information, so it has to come from the order lines. Something like this, if the "
                    "warehouse has the usual line and product views:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    ol.order_id,\n"
                    "    ol.sku,\n"
                    "    ol.category,\n"
                    "    ol.quantity,\n"
                    "    ol.line_amount\n"
                    "FROM sales.order_lines_v AS ol\n"
                    "JOIN sales.orders_v AS o\n"
                    "  ON o.order_id = ol.order_id\n"
                    "WHERE o.status = 'completed'\n"
                    "  AND o.order_ts >= '2026-01-01'\n"
                    "  AND o.order_ts < '2026-04-01';\n"
                    "```"
                ),
                u(
                    "```\n"
                    "ERROR:  column ol.category does not exist\n"
                    "LINE 4:     ol.category,\n"
                    "            ^\n"
                    'HINT:  Perhaps you meant to reference the column "p.category_name".\n'
                    "```\n"
                    "\n"
                    "there's a sales.products_v, I didn't mention it"
                ),
                a(
                    "The hint gives it away: category lives on the product, not on the line. Join the "
                    "products view on SKU:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    ol.order_id,\n"
                    "    ol.sku,\n"
                    "    p.category_name,\n"
                    "    ol.quantity,\n"
                    "    ol.line_amount\n"
                    "FROM sales.order_lines_v AS ol\n"
                    "JOIN sales.orders_v AS o\n"
                    "  ON o.order_id = ol.order_id\n"
                    "JOIN sales.products_v AS p\n"
                    "  ON p.sku = ol.sku\n"
                    "WHERE o.status = 'completed'\n"
                    "  AND o.customer_id NOT IN (100001, 100417)\n"
                    "  AND o.order_ts >= '2026-01-01'\n"
                    "  AND o.order_ts < '2026-04-01';\n"
                    "```\n"
                    "\n"
                    "If a SKU can change category over time, check whether `products_v` has validity dates; "
                    "otherwise you'll be using today's category for January's sales, which is usually fine "
                    "for a quarterly report but worth knowing."
                ),
                u(
                    "Sorry for the slow replies today. I did a 16 km training run this morning for the "
                    "Gothenburg half marathon in May and my brain is mush.",
                    key="sf-race",
                ),
                a("No rush at all, and 16 km before work is impressive. The data will still be here after a coffee."),
                u(
                    "Product query works. But line totals per order don't match order net_amount, about 0.3% "
                    "off overall. Rounding?"
                ),
                a(
                    "More likely discounts. If `line_amount` is before the order-level discount (a voucher on "
                    "the whole basket), the lines add up to the gross amount, not the net. Check on a handful "
                    "of orders:\n"
                    "\n"
                    "```python\n"
                    "check = (\n"
                    '    lines.groupby("order_id", as_index=False)["line_amount"].sum()\n'
                    '         .merge(orders[["order_id", "gross_amount", "discount_amount", '
                    '"net_amount"]], on="order_id")\n'
                    '         .assign(diff_gross=lambda d: (d["line_amount"] - '
                    'd["gross_amount"]).round(2))\n'
                    ")\n"
                    'print((check["diff_gross"] == 0).mean())\n'
                    "```\n"
                    "\n"
                    "If that's close to 1.0, the lines are gross. To get net revenue by category, spread each "
                    "order's discount across its lines in proportion to their amounts:\n"
                    "\n"
                    "```python\n"
                    "lines_net = (\n"
                    '    lines.merge(orders[["order_id", "gross_amount", "discount_amount"]], '
                    'on="order_id")\n'
                    '         .assign(line_net=lambda d: d["line_amount"] * (1 - d["discount_amount"] / '
                    'd["gross_amount"]))\n'
                    ")\n"
                    "```"
                ),
                u("It was that. With the allocation, category totals match the order totals to the cent."),
                a(
                    "Good, then the product mix and the regional numbers reconcile, which is exactly what you "
                    "want before anything goes on a slide."
                ),
                u(
                    "Can you write a quick sanity check for the whole pipeline so I know when I've broken "
                    "something? Doesn't have to be fancy."
                ),
                a(
                    "A function you call at the end of the notebook or the script, which raises with a "
                    "readable message:\n"
                    "\n"
                    "```python\n"
                    "def check_pipeline(orders_eur: pd.DataFrame, lines_net: pd.DataFrame) -> None:\n"
                    "    problems = []\n"
                    '    if orders_eur["order_id"].duplicated().any():\n'
                    '        problems.append("duplicate order ids")\n'
                    '    if orders_eur["region"].isna().any():\n'
                    '        problems.append("orders without a region")\n'
                    '    if orders_eur["customer_id"].isin(NON_CUSTOMER_IDS).any():\n'
                    '        problems.append("test or sandbox accounts present")\n'
                    '    if orders_eur["eur_per_unit"].isna().any():\n'
                    '        problems.append("orders without an exchange rate")\n'
                    "\n"
                    '    completed = orders_eur.loc[orders_eur["status"] == "completed"]\n'
                    '    by_order = completed.set_index("order_id")["net_amount"]\n'
                    "    by_lines = "
                    'lines_net.groupby("order_id")["line_net"].sum().reindex(by_order.index)\n'
                    "    if ((by_lines - by_order).abs() > 0.01).any():\n"
                    '        problems.append("category lines don\'t add up to order net")\n'
                    "\n"
                    "    if problems:\n"
                    '        raise AssertionError("pipeline check failed: " + "; ".join(problems))\n'
                    '    print(f"pipeline ok: {len(orders_eur):,} orders, {len(lines_net):,} lines")\n'
                    "```",
                    key="rc-req-check",
                ),
            ],
        ),
        Session(
            "2026-04-03T09:05:00Z",
            [
                u(
                    "Found a third problem, this time in last year's data. Until May 2025 the marketplace "
                    "integration wrote refunds as separate rows with status 'completed', and the refunds "
                    "recorded as positive amounts. So they count as revenue instead of taking it away. Data "
                    "engineering says you can spot them because channel = 'marketplace' and discount_amount = "
                    "gross_amount, i.e. net is zero but shipping is the refunded shipping... honestly it's a "
                    "mess.",
                    key="mt-issue-3",
                ),
                a(
                    "Messy, but at least there's a rule to identify them. Before relying on it, check how "
                    "clean the rule is: count the rows it catches per month, and make sure it stops in May "
                    "2025 when the integration was fixed.\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    DATE_TRUNC('month', order_ts) AS month,\n"
                    "    COUNT(*) AS suspected_refund_rows,\n"
                    "    SUM(gross_amount) AS gross,\n"
                    "    SUM(shipping_amount) AS shipping\n"
                    "FROM sales.orders_v\n"
                    "WHERE channel = 'marketplace'\n"
                    "  AND status = 'completed'\n"
                    "  AND discount_amount = gross_amount\n"
                    "  AND order_ts >= '2025-01-01'\n"
                    "GROUP BY DATE_TRUNC('month', order_ts)\n"
                    "ORDER BY month;\n"
                    "```\n"
                    "\n"
                    "If the rows end abruptly in May, the rule is probably right. Then in the pipeline, flag "
                    "them and leave them out of revenue. I'd flag rather than delete, so the check function "
                    "can report how many were removed:\n"
                    "\n"
                    "```python\n"
                    "orders = orders.assign(\n"
                    '    legacy_marketplace_refund=lambda d: (d["channel"] == "marketplace")\n'
                    '    & (d["status"] == "completed")\n'
                    '    & (d["discount_amount"] == d["gross_amount"])\n'
                    '    & (d["order_ts"] < "2025-06-01")\n'
                    ")\n"
                    "```"
                ),
                u(
                    "Stops in mid-May exactly. 1,412 rows in Q1 2025. Flagged and excluded, Q1 2025 total "
                    "goes down to 4.47M because they also carried the shipping amount. So growth looks "
                    "better."
                ),
                a(
                    "It does, and it's the right correction, but be ready to explain it: last year's figure "
                    "in the report will no longer match what was presented a year ago. A sentence in the "
                    'footnote ("Q1 2025 restated: marketplace refunds recorded as sales until May 2025 have '
                    'been removed") prevents the "why is last year different" question. It would also be '
                    "worth checking with Maggie whether last year's published numbers included these rows, "
                    "since if they did, they were overstated too."
                ),
                u(
                    "Joost (he runs Benelux) wants new vs returning customers per region: how much of Q1 "
                    "revenue came from people who'd never bought from us before.",
                    key="mt-cut-2",
                ),
                a(
                    'The definition matters a lot here: "new" should mean their first order *ever* falls in '
                    "the quarter, not just their first order in our 2025–2026 extract. A customer who last "
                    "bought in 2023 would otherwise look new. So this needs the full order history, which is "
                    "a good reason to compute it in the warehouse rather than pulling all of it into pandas.\n"
                    "\n"
                    "Do you know how far back `orders_v` goes?"
                ),
                u(
                    "Back to 2019 I think. And general preference: I'd rather do the heavy lifting in SQL and "
                    "keep pandas for the last mile — formatting, pivots, charts.",
                    key="pref-sql",
                ),
                a(
                    "Then here's the whole thing in one query. The CTE finds each customer's first completed "
                    "order across all history, the main query labels each Q1 order:\n"
                    "\n"
                    "```sql\n"
                    "WITH first_orders AS (\n"
                    "    SELECT\n"
                    "        customer_id,\n"
                    "        MIN(order_ts) AS first_order_date\n"
                    "    FROM sales.orders_v\n"
                    "    WHERE status = 'completed'\n"
                    "      AND customer_id NOT IN (100001, 100417)\n"
                    "    GROUP BY customer_id\n"
                    ")\n"
                    "SELECT\n"
                    "    o.region,\n"
                    "    CASE\n"
                    "        WHEN f.first_order_date >= '2026-01-01' THEN 'new'\n"
                    "        ELSE 'returning'\n"
                    "    END AS customer_type,\n"
                    "    COUNT(DISTINCT o.customer_id) AS customers,\n"
                    "    COUNT(*) AS orders,\n"
                    "    SUM(o.net_amount) AS net_local\n"
                    "FROM sales.orders_v AS o\n"
                    "JOIN first_orders AS f\n"
                    "  ON f.customer_id = o.customer_id\n"
                    "WHERE o.status = 'completed'\n"
                    "  AND o.customer_id NOT IN (100001, 100417)\n"
                    "  AND o.order_ts >= '2026-01-01'\n"
                    "  AND o.order_ts < '2026-04-01'\n"
                    "GROUP BY o.region, customer_type\n"
                    "ORDER BY o.region, customer_type;\n"
                    "```\n"
                    "\n"
                    "`net_local` is still in mixed currencies. To keep the conversion in one place, either "
                    "pull this at order level (one row per Q1 order with `customer_type`) and reuse the "
                    "currency function in pandas, or join the rates table in SQL if finance's rates are "
                    "loaded into the warehouse. The first is less work today.",
                    key="code-firstorder",
                ),
                u(
                    "I did the order-level variant and got:\n"
                    "\n"
                    "```\n"
                    "ERROR:  window functions are not allowed in WHERE\n"
                    "LINE 14:   AND ROW_NUMBER() OVER (PARTITION BY o.customer_id ORDER BY o.order_ts) = 1\n"
                    "```\n"
                    "\n"
                    'I was trying to also get "first order in the quarter" for another column'
                ),
                a(
                    "Window functions are evaluated after `WHERE`, so they can't be filtered there. Compute "
                    "the row number in a subquery or CTE, then filter on it outside:\n"
                    "\n"
                    "```sql\n"
                    "WITH q1 AS (\n"
                    "    SELECT\n"
                    "        o.order_id,\n"
                    "        o.customer_id,\n"
                    "        o.order_ts,\n"
                    "        ROW_NUMBER() OVER (PARTITION BY o.customer_id ORDER BY o.order_ts) AS "
                    "nth_in_quarter\n"
                    "    FROM sales.orders_v AS o\n"
                    "    WHERE o.status = 'completed'\n"
                    "      AND o.order_ts >= '2026-01-01'\n"
                    "      AND o.order_ts < '2026-04-01'\n"
                    ")\n"
                    "SELECT\n"
                    "    order_id,\n"
                    "    customer_id,\n"
                    "    order_ts,\n"
                    "    nth_in_quarter = 1 AS is_first_in_quarter\n"
                    "FROM q1;\n"
                    "```\n"
                    "\n"
                    "Or in Postgres you can skip the filter entirely and keep the flag as a column, as above, "
                    "which is usually more useful anyway."
                ),
                u(
                    "Got it working. Results, converted to EUR, in k€ (partner shop sales have no "
                    "customer_id, so they're not in here, that's the missing ~485 k€):\n"
                    "\n"
                    "```\n"
                    "region   customer_type  customers  orders  net_k\n"
                    "Benelux  new                 3104    3390  311.6\n"
                    "Benelux  returning           5877    8120  584.0\n"
                    "DACH     new                 4211    4602  440.9\n"
                    "DACH     returning           9930   14688 1090.3\n"
                    "Nordics  new                 5580    6231  402.7\n"
                    "Nordics  returning          12660   19540  905.5\n"
                    "UK       new                 1650    1802  176.2\n"
                    "UK       returning           4102    5634  423.8\n"
                    "```"
                ),
                a(
                    "A few things stand out:\n"
                    "\n"
                    "- **Benelux has the highest share of revenue from new customers**, 34.8%, against 28.8% "
                    "to 30.8% elsewhere. Joost will probably like that.\n"
                    "- **Returning customers order more often**: 1.4 to 1.5 orders each in the quarter "
                    "against 1.1 for new ones, which is what you'd expect.\n"
                    "- **New customers spend more per order** in every region, roughly 20 € more on average. "
                    "First orders are often the big items, a pan set or a knife block, and later orders are "
                    "refills and small things.\n"
                    "\n"
                    "For the slide, the share of revenue from new customers per region is the one number that "
                    "answers Joost's question directly."
                ),
                u(
                    "Nice. I'm off early today, the office is doing an Easter lunch and then everyone "
                    "disappears for the long weekend."
                ),
                a(
                    "Enjoy the long weekend. When you're back: the regional and channel numbers are ready for "
                    "charts, and the new-vs-returning split is done."
                ),
            ],
        ),
        Session(
            "2026-04-07T08:15:00Z",
            [
                u(
                    "Back from Easter, and the plan changed. The board meeting got moved forward, so Maggie "
                    "needs the finished report by Tuesday April 14 — a week from today — and she wants a "
                    "rough draft on Friday so she can read it over the weekend. The partner-shop question has "
                    "also become the main topic for the board, so the channel slide is the one that matters "
                    "most. And Joost wants his new-vs-returning numbers as a separate page for the Benelux "
                    "team. I have maybe 4 days of real work left. Can you help me plan it so the channel "
                    "slide gets the most attention?",
                    key="ku-deadline-2",
                ),
                a(
                    "Four working days is enough if the numbers are frozen first and everything else is "
                    "presentation. A plan:\n"
                    "\n"
                    "- **Today:** freeze the data. Pull the final extract, run `check_pipeline`, save the "
                    "cleaned DataFrames to Parquet with the date in the file name. From here on, every chart "
                    "reads those files, never the warehouse.\n"
                    "- **Wednesday:** channel slide. Revenue and growth by channel and region, plus one "
                    "number per partner-shop region the board can remember.\n"
                    "- **Thursday:** the other charts (regional growth vs target, category mix, new vs "
                    "returning), and the Benelux page.\n"
                    "- **Friday morning:** the written summary, then the draft to Maggie.\n"
                    "- **Monday:** her comments, final polish, nothing new.\n"
                    "\n"
                    "```python\n"
                    "from datetime import date\n"
                    "\n"
                    'FROZEN = f"data/frozen/{date.today():%Y%m%d}"\n'
                    'orders_eur.to_parquet(f"{FROZEN}_orders_eur.parquet", index=False)\n'
                    'lines_net.to_parquet(f"{FROZEN}_lines_net.parquet", index=False)\n'
                    "```"
                ),
                u(
                    "Frozen. Regional totals for Q1 2026 from the frozen data, in k€:\n"
                    "\n"
                    "```\n"
                    "region   net_2025q1_k  net_2026q1_k  growth_pct\n"
                    "DACH          1566.1        1702.4         8.7\n"
                    "Nordics       1402.3        1487.9         6.1\n"
                    "Benelux        903.8         986.5         9.2\n"
                    "UK             597.9         643.8         7.7\n"
                    "```\n"
                    "\n"
                    "So the Nordics came in at €1.49M, our second biggest region but the slowest growing.",
                    key="mt-nordics",
                ),
                a(
                    "That gives the story for the regional slide: Benelux and DACH carry the growth, at 9.2% "
                    "and 8.7%, the UK is in the middle at 7.7%, and the Nordics are the laggard at 6.1% "
                    "despite being the second largest market. Total growth comes to 7.8% with the restated "
                    "2025 figure.\n"
                    "\n"
                    'The obvious follow-up question from the board will be "why the Nordics", so it\'s worth '
                    "checking before Friday whether the slowdown is in one channel. From the frozen data:\n"
                    "\n"
                    "```python\n"
                    "nordics = (\n"
                    '    orders_eur.loc[lambda d: (d["region"] == "Nordics") & (d["status"] == '
                    '"completed")]\n'
                    '      .pivot_table(index="channel", columns="quarter", values="net_amount_eur", '
                    'aggfunc="sum")\n'
                    '      .loc[:, ["2025Q1", "2026Q1"]]\n'
                    '      .assign(growth_pct=lambda t: ((t["2026Q1"] / t["2025Q1"] - 1) * 100).round(1))\n'
                    ")\n"
                    "print(nordics)\n"
                    "```"
                ),
                u(
                    "Finance's reforecast came in this morning: the target we compare against is 6.5% now. "
                    "The old figure assumed the spring price increase, which got postponed.",
                    key="ku-target-2",
                ),
                a(
                    "That changes the headline: at 7.8% total growth, Q1 is now above target rather than "
                    "below it, and only the Nordics fall short, by 0.4 pp. Re-run the table with the new "
                    "target:\n"
                    "\n"
                    "```python\n"
                    "regions = growth_by_region(orders_eur, target=0.065)\n"
                    "print(regions.assign(\n"
                    '    growth_pct=lambda t: (t["growth"] * 100).round(1),\n'
                    '    gap_pp=lambda t: t["gap_pp"].round(1),\n'
                    ')[["growth_pct", "gap_pp"]])\n'
                    "```\n"
                    "\n"
                    "Worth saying on the slide that the target was revised and when, so nobody compares "
                    "against an old deck and thinks the numbers changed."
                ),
                u("Chart time. Regional growth vs target for slide 2."),
                a(
                    "```python\n"
                    "import matplotlib.pyplot as plt\n"
                    "\n"
                    "TARGET_PCT = GROWTH_TARGET * 100   # GROWTH_TARGET is set once, at the top of the script\n"
                    "\n"
                    "def plot_growth_vs_target(regions: pd.DataFrame, path: str) -> None:\n"
                    '    data = (regions["growth"] * 100).sort_values()\n'
                    "    fig, ax = plt.subplots(figsize=(8, 4.5))\n"
                    '    colors = ["#9aa5b1" if v >= TARGET_PCT else "#c0504d" for v in data]\n'
                    "    ax.barh(data.index, data.values, color=colors)\n"
                    '    ax.axvline(TARGET_PCT, color="#333333", linestyle="--", linewidth=1)\n'
                    '    ax.text(TARGET_PCT, len(data) - 0.4, f" target {TARGET_PCT:.1f}%", va="bottom", '
                    "fontsize=9)\n"
                    "    for y, v in enumerate(data.values):\n"
                    '        ax.text(v + 0.1, y, f"{v:.1f}%", va="center", fontsize=9)\n'
                    '    ax.set_xlabel("Net revenue growth vs Q1 2025 (%)")\n'
                    '    ax.spines[["top", "right"]].set_visible(False)\n'
                    "    ax.set_xlim(0, max(data.max(), TARGET_PCT) + 1.5)\n"
                    "    fig.tight_layout()\n"
                    "    fig.savefig(path, dpi=200)\n"
                    "    plt.close(fig)\n"
                    "```\n"
                    "\n"
                    "Regions sorted by growth, the target as a dashed line, values printed at the end of each "
                    "bar so nobody has to read the axis. Regions under target get a different colour; for the "
                    "final version we can check the colours with Maggie."
                ),
                u(
                    "```\n"
                    "ValueError: The number of FixedLocator locations (4), usually from a call to "
                    "self.set_ticks(), does not match the number of labels (5).\n"
                    "```\n"
                    "\n"
                    'I added ax.set_yticklabels with a "Total" label'
                ),
                a(
                    "`set_yticklabels` labels the ticks that already exist, and there are four (one per "
                    'region), so a fifth label has nowhere to go. If you want a "Total" bar, add it to the '
                    "data instead of only to the labels:\n"
                    "\n"
                    "```python\n"
                    "total_growth = orders_total_growth * 100   # the 7.8 from earlier\n"
                    'data = pd.concat([data, pd.Series({"Total": total_growth})])\n'
                    "```\n"
                    "\n"
                    "Then draw it after the regions and give it a distinct colour, so it reads as a summary "
                    "rather than a fifth region. Drop the `set_yticklabels` call; `barh` sets the labels from "
                    "the index."
                ),
                u("Works. How do I get the chart font to match the deck? The deck uses Inter."),
                a(
                    "```python\n"
                    "import matplotlib as mpl\n"
                    "\n"
                    "mpl.rcParams.update({\n"
                    '    "font.family": "Inter",\n'
                    '    "font.size": 10,\n'
                    '    "axes.titlesize": 12,\n'
                    '    "axes.labelsize": 10,\n'
                    '    "svg.fonttype": "none",\n'
                    "})\n"
                    "```\n"
                    "\n"
                    "Put it at the top of the chart script. `svg.fonttype: none` keeps text as text in SVG "
                    "exports, so it stays editable if someone opens the chart in the deck tool."
                ),
                u(
                    "```\n"
                    "findfont: Font family 'Inter' not found.\n"
                    "```\n"
                    "\n"
                    "but Inter is definitely installed, I use it in Word"
                ),
                a(
                    "matplotlib keeps its own font cache and doesn't notice fonts installed after it was "
                    "built. Rebuild it:\n"
                    "\n"
                    "```python\n"
                    "import matplotlib.font_manager as fm\n"
                    "\n"
                    "fm._load_fontmanager(try_read_cache=False)\n"
                    'print([f.name for f in fm.fontManager.ttflist if "Inter" in f.name][:5])\n'
                    "```\n"
                    "\n"
                    "If the list is still empty, the font is probably installed for your user only (on "
                    "Windows, `%LOCALAPPDATA%\\Microsoft\\Windows\\Fonts`), which older matplotlib versions "
                    "don't search. Add it explicitly:\n"
                    "\n"
                    "```python\n"
                    "for path in "
                    'fm.findSystemFonts(fontpaths=[r"C:\\Users\\hanna\\AppData\\Local\\Microsoft\\Wind'
                    'ows\\Fonts"]):\n'
                    '    if "Inter" in path:\n'
                    "        fm.fontManager.addfont(path)\n"
                    "```"
                ),
                u("The first one did it. ok, draft is due friday, going heads down"),
                a(
                    "Good luck. The channel slide is the one to get right; everything else can be a bit rough "
                    "in the draft."
                ),
            ],
        ),
        Session(
            "2026-04-10T09:30:00Z",
            [
                u(
                    "Draft day. Maggie had a quick look at slide 2 over my shoulder and said she can't tell "
                    'the "below target" bar from the others. Turns out she\'s red-green colourblind, which I '
                    "didn't know after two years of sending her charts.",
                    key="sf-colour",
                ),
                a(
                    "Good that it came up now rather than in front of the board. Red against grey is one of "
                    "the worst combinations for the most common kinds of colour vision deficiency; blue "
                    "against orange is safe for nearly everyone. It also helps not to rely on colour alone, "
                    "so the chart still reads in black and white:\n"
                    "\n"
                    "```python\n"
                    'BELOW = "#e08214"   # orange\n'
                    'ABOVE = "#5b7c99"   # muted blue\n'
                    "\n"
                    "def plot_growth_vs_target(regions: pd.DataFrame, path: str) -> None:\n"
                    '    data = (regions["growth"] * 100).sort_values()\n'
                    "    fig, ax = plt.subplots(figsize=(8, 4.5))\n"
                    "    below = data < TARGET_PCT\n"
                    "    bars = ax.barh(data.index, data.values, color=[BELOW if b else ABOVE for b in "
                    "below])\n"
                    "    for bar, is_below in zip(bars, below):\n"
                    "        if is_below:\n"
                    '            bar.set_hatch("//")\n'
                    '            bar.set_edgecolor("white")\n'
                    '    ax.axvline(TARGET_PCT, color="#333333", linestyle="--", linewidth=1)\n'
                    "    for y, (v, is_below) in enumerate(zip(data.values, below)):\n"
                    '        label = f"{v:.1f}%" + ("  below target" if is_below else "")\n'
                    '        ax.text(v + 0.1, y, label, va="center", fontsize=9)\n'
                    '    ax.set_xlabel("Net revenue growth vs Q1 2025 (%)")\n'
                    '    ax.spines[["top", "right"]].set_visible(False)\n'
                    "    fig.tight_layout()\n"
                    "    fig.savefig(path, dpi=200)\n"
                    "    plt.close(fig)\n"
                    "```\n"
                    "\n"
                    'The hatching and the "below target" label carry the same information as the colour. If '
                    'you want to check any chart, the "Color Oracle" app simulates the common types on '
                    "screen."
                ),
                u(
                    "Orange with hatching for below target, blue for the rest. She says it's much better. Now "
                    "the channel slide, the important one."
                ),
                a(
                    'For "are the partner shops worth it", the board needs two things side by side: how big '
                    "each channel is and how fast it grows. A small multiple per region does that without a "
                    "legend hunt:\n"
                    "\n"
                    "```python\n"
                    'CHANNELS = ["web", "partner_shop", "marketplace"]\n'
                    "\n"
                    "def plot_channels(by_channel: pd.DataFrame, path: str) -> None:\n"
                    '    regions = by_channel.index.get_level_values("region").unique()\n'
                    "    fig, axes = plt.subplots(1, len(regions), figsize=(12, 3.6), sharex=True)\n"
                    "    for ax, region in zip(axes, regions):\n"
                    "        part = by_channel.loc[region].reindex(CHANNELS)\n"
                    '        growth = part["growth"] * 100\n'
                    "        ax.barh(CHANNELS, growth, color=[BELOW if g < 0 else ABOVE for g in growth])\n"
                    '        ax.axvline(0, color="#333333", linewidth=0.8)\n'
                    "        ax.set_title(region, fontsize=11)\n"
                    '        for y, (g, k) in enumerate(zip(growth, part["2026Q1"] / 1000)):\n'
                    '            ax.text(g, y, f"  {g:+.1f}% ({k:,.0f} k€)", va="center", fontsize=8)\n'
                    '        ax.spines[["top", "right"]].set_visible(False)\n'
                    '    axes[0].set_ylabel("Channel")\n'
                    '    fig.supxlabel("Net revenue growth vs Q1 2025 (%), Q1 2026 revenue in brackets")\n'
                    "    fig.tight_layout()\n"
                    "    fig.savefig(path, dpi=200)\n"
                    "    plt.close(fig)\n"
                    "```\n"
                    "\n"
                    "Negative growth gets the orange, so a shrinking channel stands out in every panel."
                ),
                u(
                    "Growth by channel, Q1 vs Q1:\n"
                    "\n"
                    "```\n"
                    "region   web    partner_shop  marketplace\n"
                    "Benelux  12.4       1.8          10.9\n"
                    "DACH     11.9       0.6           9.8\n"
                    "Nordics   9.7      -3.9           8.2\n"
                    "UK        9.9       2.2           6.0\n"
                    "```"
                ),
                a(
                    "That's a clear message for the board: web grows 9.7% to 12.4% everywhere, marketplace "
                    "6.0% to 10.9%, and partner shops are flat, between 0.6% and 2.2%, except in the Nordics, "
                    "where they shrink by 3.9%. The Nordics slowdown is largely the partner shops.\n"
                    "\n"
                    'Two cautions before anyone concludes "close the partner shops":\n'
                    "\n"
                    "- Partner shops might drive web sales (people see the pans in a shop and order online "
                    "later). That can't be seen in this data.\n"
                    "- Partner-shop revenue is what we sell to the shops, not what the shops sell; stock "
                    "levels at the shops can make it lumpy from quarter to quarter.\n"
                    "\n"
                    "I'd put both in the speaker notes."
                ),
                u(
                    "Maggie also asked for an appendix page: the top 20 SKUs by Q1 revenue, with their growth "
                    "vs last year.",
                    key="mt-cut-3",
                ),
                a(
                    "Since the discount allocation lives in the frozen line data, I'd do this one in pandas "
                    "from the frozen files so it matches the category numbers exactly; doing it again in SQL "
                    "would mean reimplementing the allocation there:\n"
                    "\n"
                    "```python\n"
                    "lines_q = "
                    'lines_net.assign(quarter=lines_net["order_ts"].dt.tz_convert("Europe/Stockh'
                    'olm").dt.to_period("Q").astype(str))\n'
                    "sku = (\n"
                    '    lines_q.loc[lines_q["quarter"].isin(["2025Q1", "2026Q1"])]\n'
                    '      .pivot_table(index=["sku", "product_name"], columns="quarter", '
                    'values="line_net_eur", aggfunc="sum", fill_value=0)\n'
                    '      .rename(columns={"2025Q1": "q1_2025", "2026Q1": "q1_2026"})\n'
                    '      .assign(growth_pct=lambda t: ((t["q1_2026"] / '
                    't["q1_2025"].where(t["q1_2025"] > 0) - 1) * 100).round(1))\n'
                    '      .sort_values("q1_2026", ascending=False)\n'
                    "      .head(20)\n"
                    ")\n"
                    "```\n"
                    "\n"
                    "SKUs that didn't exist last year get no growth figure instead of an infinite one; show "
                    'them as "new" in the table.'
                ),
                u(
                    "```\n"
                    "KeyError: 'line_net_eur'\n"
                    "```\n"
                    "\n"
                    "the frozen lines file only has line_net, not the euro version. oops"
                ),
                a(
                    "The allocation ran before the currency conversion, so `line_net` is still in the order's "
                    "currency. Convert it with the order's rate, which is already on `orders_eur`:\n"
                    "\n"
                    "```python\n"
                    "lines_net = (\n"
                    '    lines_net.merge(orders_eur[["order_id", "eur_per_unit"]], on="order_id", '
                    'how="left", validate="many_to_one")\n'
                    '             .assign(line_net_eur=lambda d: (d["line_net"] * '
                    'd["eur_per_unit"]).round(2))\n'
                    ")\n"
                    "```\n"
                    "\n"
                    "Then re-save the frozen lines file so Monday's reruns don't hit this again."
                ),
                u(
                    "Done, the table looks right: the 28 cm cast iron pan is number one, +14.2%. Draft sent "
                    "to Maggie at 16:40. Fingers crossed."
                ),
                a(
                    "Well done getting it out on time. While she reads it, two things worth doing Monday "
                    "morning before her comments arrive: re-run the whole script from the frozen files start "
                    "to finish in a fresh kernel, so you know it reproduces, and read the numbers in the "
                    "written summary against the charts one more time. Mismatches between text and chart are "
                    "the most common error in a draft like this."
                ),
                u("Good tip. My long run tomorrow is 18 km so if I'm slow on Monday, that's why."),
                a("Enjoy it, and have a good weekend."),
            ],
        ),
        Session(
            "2026-04-13T07:50:00Z",
            [
                u(
                    "Morning. Maggie's comments on the draft:\n"
                    "\n"
                    '1. "Summary says Benelux grew 9.4%, chart says 9.2%. Which?"\n'
                    "2. \"Slide 4: what does 'net' mean here, the board will ask.\"\n"
                    '3. "Can the category chart show last year too?"\n'
                    '4. "The appendix table has 21 rows??"\n'
                    '5. "Good work overall." (!!)'
                ),
                a(
                    "All fixable this morning. Taking them in order:\n"
                    "\n"
                    "1. The chart is computed from the frozen data; the summary number was probably typed "
                    "from an earlier run, before the marketplace restatement. Easiest fix for the future: "
                    "generate the summary's numbers from the same DataFrame, so they can't drift apart "
                    "(sketch below).\n"
                    "2. The footnote you wrote on the 27th answers it; put it on slide 4 as well, in small "
                    "type.\n"
                    "3. Yes: paired bars per category, last year lighter, this year darker.\n"
                    "4. Most likely a tie, or the header row being counted; check `len(sku)` and whether "
                    '`head(20)` was applied after a concat with a "new SKUs" block.\n'
                    "\n"
                    "For 1, fill the summary from the data:\n"
                    "\n"
                    "```python\n"
                    "SUMMARY = (\n"
                    '    "Net revenue grew {total:.1f}% to {q1_2026_m:.2f} M€. "\n'
                    '    "Benelux ({benelux:.1f}%) and DACH ({dach:.1f}%) grew fastest; "\n'
                    '    "the Nordics ({nordics:.1f}%) were the only region below the {target:.1f}% '
                    'target."\n'
                    ")\n"
                    "\n"
                    'g = regions["growth"] * 100\n'
                    "print(SUMMARY.format(\n"
                    "    total=total_growth * 100,\n"
                    '    q1_2026_m=totals["2026Q1"] / 1e6,\n'
                    '    benelux=g["Benelux"], dach=g["DACH"], nordics=g["Nordics"],\n'
                    "    target=GROWTH_TARGET * 100,\n"
                    "))\n"
                    "```"
                ),
                u(
                    "1 was exactly that, I'd typed 9.4 from a run before the restatement. Using your template "
                    "now. 4: the new SKUs block, yes. How do I do the paired bars for 3?"
                ),
                a(
                    "```python\n"
                    "import numpy as np\n"
                    "\n"
                    "def plot_categories(cat: pd.DataFrame, path: str) -> None:\n"
                    "    # cat: index = category, columns q1_2025, q1_2026 in EUR\n"
                    '    cat = cat.sort_values("q1_2026")\n'
                    "    y = np.arange(len(cat))\n"
                    "    h = 0.38\n"
                    "    fig, ax = plt.subplots(figsize=(8, 5))\n"
                    '    ax.barh(y - h / 2, cat["q1_2025"] / 1000, height=h, color="#c7d3de", label="Q1 '
                    '2025")\n'
                    '    ax.barh(y + h / 2, cat["q1_2026"] / 1000, height=h, color=ABOVE, label="Q1 '
                    '2026")\n'
                    "    ax.set_yticks(y, cat.index)\n"
                    '    for yi, v in zip(y, cat["q1_2026"] / 1000):\n'
                    '        ax.text(v + 5, yi + h / 2, f"{v:,.0f} k€", va="center", fontsize=8)\n'
                    '    ax.set_xlabel("Net revenue (k€)")\n'
                    '    ax.legend(frameon=False, loc="lower right")\n'
                    '    ax.spines[["top", "right"]].set_visible(False)\n'
                    "    fig.tight_layout()\n"
                    "    fig.savefig(path, dpi=200)\n"
                    "    plt.close(fig)\n"
                    "```\n"
                    "\n"
                    "Sorted by this year's revenue, largest at the top. Only this year's bars get value "
                    "labels; labelling both gets crowded fast, and the light bar is there for comparison, not "
                    "for reading off."
                ),
                u(
                    "Perfect. The deck is in Google Slides and the SVGs come out blurry or with the wrong "
                    "font when I insert them. PNG?"
                ),
                a(
                    "Google Slides rasterises SVGs on import and doesn't have your fonts, which explains both "
                    "problems. PNG at a resolution high enough for a projector is the practical answer:\n"
                    "\n"
                    "```python\n"
                    'fig.savefig(path.replace(".svg", ".png"), dpi=200, bbox_inches="tight", '
                    'facecolor="white")\n'
                    "```\n"
                    "\n"
                    "At `figsize=(8, 4.5)` and 200 dpi that's 1600 by 900 pixels, which is plenty for a "
                    'slide. `facecolor="white"` avoids a transparent background turning grey or black in '
                    "some viewers."
                ),
                u(
                    "All charts re-exported. Last check: the total on the title slide says 4.8 M€, the table "
                    "says 4,820.6 k€. Consistent enough or does it look sloppy?"
                ),
                a(
                    "Consistent, but the two different units on two slides make people stop and convert. Pick "
                    "one unit for the whole deck. For a board audience, M€ on the title and summary and k€ in "
                    "tables and appendices is a common convention, as long as each table says its unit in the "
                    "header. What looks sloppy is the same number appearing with different roundings in the "
                    "same unit, like 4.8 M€ on one slide and 4.82 M€ on another."
                ),
                u(
                    "Fine, leaving it. Can you give me a last sanity query to run straight against the "
                    "warehouse, so I can say the frozen numbers still match today's data?"
                ),
                a(
                    "```sql\n"
                    "SELECT\n"
                    "    region,\n"
                    "    COUNT(*) AS orders,\n"
                    "    SUM(net_amount) AS net_local\n"
                    "FROM sales.orders_v\n"
                    "WHERE status = 'completed'\n"
                    "  AND customer_id NOT IN (100001, 100417)\n"
                    "  AND order_ts >= '2026-01-01'\n"
                    "  AND order_ts < '2026-04-01'\n"
                    "GROUP BY region\n"
                    "ORDER BY region;\n"
                    "```\n"
                    "\n"
                    "Compare the order counts per region with the frozen file:\n"
                    "\n"
                    "```python\n"
                    'frozen = pd.read_parquet(f"{FROZEN}_orders_eur.parquet")\n'
                    "print(\n"
                    '    frozen.loc[lambda d: (d["status"] == "completed") & (d["quarter"] == '
                    '"2026Q1")]\n'
                    '          .groupby("region")\n'
                    "          .size()\n"
                    ")\n"
                    "```\n"
                    "\n"
                    "A handful of orders difference is expected (late refunds since the freeze); a difference "
                    "in the hundreds means something changed upstream and is worth asking data engineering "
                    "about before the board meeting."
                ),
                u("Differences of 3, 1, 0 and 2 orders. Late refunds. Fine."),
                a(
                    "That's exactly what late refunds look like. You can say with a straight face that the "
                    "numbers are stable."
                ),
                u(
                    "Sent the final to Maggie. She's presenting tomorrow. Thank you, seriously, this would "
                    "have taken me twice as long alone."
                ),
                a(
                    "Glad it helped, and you did the hard part: finding the test accounts and the old "
                    "marketplace refunds is what made the numbers trustworthy. Good luck to Maggie tomorrow.\n"
                    "\n"
                    "If you want to make next quarter easier, the natural next step is turning the notebook "
                    "into one script that takes the quarter as a parameter. Happy to help with that whenever."
                ),
                u("Definitely next quarter. For now I'm going to sleep for a week."),
                a("Well earned. Rest up."),
            ],
        ),
        Session(
            "2026-04-22T13:00:00Z",
            [
                u(
                    "Hi again. Reorg news first, because it changes who I'm doing this for: since Monday my "
                    "manager is Dev Raman, who came in as Head of Commercial Analytics. Maggie moved over to "
                    "lead the new Lisbon office, so she's still around but not my boss anymore. Dev's first "
                    'ask, in our first 1:1, was: "the quarterly report should take one day, not three '
                    'weeks." So, automation. He also wants a monthly flash version with just the headline '
                    "numbers, and he wants everything in git, which honestly we should have done from the "
                    "start.",
                    key="ku-manager-2",
                ),
                a(
                    "A fair ask, and most of the work is already done: the notebook contains every step, it "
                    "just needs to be cut into pieces that run without you. A structure that works well for "
                    "this kind of report:\n"
                    "\n"
                    "```text\n"
                    "quarterly-report/\n"
                    "├── sql/\n"
                    "│   ├── orders.sql            # the extract, with :start and :end parameters\n"
                    "│   ├── order_lines.sql\n"
                    "│   └── new_vs_returning.sql\n"
                    "├── report/\n"
                    "│   ├── load.py               # extract + Parquet cache\n"
                    "│   ├── clean.py              # duplicates, test accounts, legacy refunds, regions\n"
                    "│   ├── fx.py                 # currency conversion\n"
                    "│   ├── tables.py             # regional, channel, category, SKU tables\n"
                    "│   ├── charts.py             # one function per chart\n"
                    "│   └── checks.py             # the pipeline check\n"
                    "├── run_report.py             # python run_report.py --quarter 2026Q2\n"
                    "├── config.toml               # growth target, excluded accounts, colours\n"
                    "└── README.md\n"
                    "```\n"
                    "\n"
                    "SQL in `.sql` files means your team lead can review queries as queries, and the Python "
                    "stays about shaping and presenting. Everything quarter-specific goes in one place: the "
                    "`--quarter` argument and `config.toml`."
                ),
                u("Makes sense. What goes in config.toml exactly?"),
                a(
                    "Everything that's a decision rather than logic, so changing it never needs a code "
                    "change:\n"
                    "\n"
                    "```toml\n"
                    "# config.toml\n"
                    "[report]\n"
                    'timezone = "Europe/Stockholm"     # month and quarter boundaries\n'
                    'currency = "EUR"\n'
                    "\n"
                    "[targets]\n"
                    '"2026Q1" = 0.065\n'
                    '"2026Q2" = 0.07\n'
                    "\n"
                    "[exclusions]\n"
                    "# Not customers. Confirmed by the web team.\n"
                    "customer_ids = [100001, 100417]\n"
                    "\n"
                    "[legacy]\n"
                    'marketplace_refunds_until = "2025-06-01"\n'
                    "\n"
                    "[charts]\n"
                    'above = "#5b7c99"\n'
                    'below = "#e08214"\n'
                    "dpi = 200\n"
                    "```\n"
                    "\n"
                    "```python\n"
                    "import tomllib\n"
                    "\n"
                    'with open("config.toml", "rb") as f:\n'
                    "    CONFIG = tomllib.load(f)\n"
                    "\n"
                    'target = CONFIG["targets"][args.quarter]\n'
                    "```\n"
                    "\n"
                    "A missing target for a new quarter then fails loudly with a `KeyError` instead of "
                    "silently reusing last quarter's."
                ),
                u("Where do the quarter dates come from? I've been typing '2026-01-01' everywhere."),
                a(
                    "From the quarter string, in one function, so nothing else ever types a date:\n"
                    "\n"
                    "```python\n"
                    "import pandas as pd\n"
                    "\n"
                    "def quarter_bounds(quarter: str, tz: str) -> tuple[pd.Timestamp, pd.Timestamp]:\n"
                    "    # '2026Q2' -> (start, end) as timezone-aware timestamps, end exclusive\n"
                    '    p = pd.Period(quarter, freq="Q")\n'
                    "    start = p.start_time.tz_localize(tz)\n"
                    "    end = (p + 1).start_time.tz_localize(tz)\n"
                    "    return start, end\n"
                    "\n"
                    "def same_quarter_last_year(quarter: str) -> str:\n"
                    '    return str(pd.Period(quarter, freq="Q") - 4)\n'
                    "```\n"
                    "\n"
                    '`quarter_bounds("2026Q2", "Europe/Stockholm")` gives 1 April 00:00 to 1 July 00:00 '
                    "Stockholm time, which is what the SQL `>=`/`<` pair needs. Passing timezone-aware "
                    "timestamps to the query also fixes a subtle thing in the notebook: `'2026-01-01'` as a "
                    "string is interpreted in the database session's timezone, which is probably UTC.",
                    key="rc-req-bounds",
                ),
                u("Wait, so were my Q1 numbers off by an hour at each end?"),
                a(
                    "Possibly, by a tiny amount: orders placed between 00:00 and 01:00 Stockholm time on 1 "
                    "January would have counted as Q4 2025 if the session was in UTC, and orders from the "
                    "same hour on 1 April would have fallen into Q1. The monthly split in pandas already used "
                    "Stockholm time, so only the SQL extracts could be affected.\n"
                    "\n"
                    "On New Year's night and the night into 1 April, that's likely a few dozen orders either "
                    "way, far below what any slide shows. You can check in a minute:\n"
                    "\n"
                    "```sql\n"
                    "SHOW timezone;\n"
                    "\n"
                    "SELECT\n"
                    "    COUNT(*) AS orders_in_first_hour\n"
                    "FROM sales.orders_v\n"
                    "WHERE order_ts >= '2026-01-01 00:00:00+01'\n"
                    "  AND order_ts < '2026-01-01 01:00:00+01';\n"
                    "```"
                ),
                u(
                    "Session timezone is UTC and there were 14 orders in that hour. Not worth restating "
                    "anything, but good to fix for Q2."
                ),
                a("Agreed, not material. With the timestamps passed as parameters, Q2 will be right by construction."),
                u(
                    "How do I pass the parameters into the .sql files? Right now the query is a Python string "
                    "with %(start)s."
                ),
                a(
                    "Keep the named placeholders in the files, and load them with a tiny helper. With "
                    "SQLAlchemy, `text()` uses the `:name` style, which reads well in SQL files:\n"
                    "\n"
                    "```sql\n"
                    "-- sql/orders.sql\n"
                    "SELECT\n"
                    "    order_id,\n"
                    "    order_ts,\n"
                    "    customer_id,\n"
                    "    region,\n"
                    "    country_code,\n"
                    "    channel,\n"
                    "    currency,\n"
                    "    gross_amount,\n"
                    "    discount_amount,\n"
                    "    shipping_amount,\n"
                    "    net_amount,\n"
                    "    status,\n"
                    "    store_id\n"
                    "FROM sales.orders_v\n"
                    "WHERE order_ts >= :start\n"
                    "  AND order_ts < :end;\n"
                    "```\n"
                    "\n"
                    "```python\n"
                    "from pathlib import Path\n"
                    "\n"
                    "from sqlalchemy import text\n"
                    "\n"
                    "def run_sql(engine, name: str, **params) -> pd.DataFrame:\n"
                    '    query = text(Path("sql", f"{name}.sql").read_text())\n'
                    "    with engine.connect() as conn:\n"
                    "        return pd.read_sql(query, conn, params=params)\n"
                    "\n"
                    'orders = run_sql(engine, "orders", start=start, end=end)\n'
                    "```"
                ),
                u(
                    "```\n"
                    "sqlalchemy.exc.ArgumentError: This text() construct doesn't define a bound parameter "
                    "named 'end'\n"
                    "```"
                ),
                a(
                    "The trailing semicolon is fine, so it's probably the parameter name in the file. The "
                    "message means SQLAlchemy didn't find `:end` in the text: check the file for a typo, a "
                    "different name (`:end_ts`?), or the colon being followed by a space. One common trap: "
                    "`::` casts like `order_ts::date` next to a parameter can confuse the parser; write "
                    "`CAST(order_ts AS date)` instead, or escape the colons as `\\:\\:`.\n"
                    "\n"
                    "A guard in the helper gives a clearer message next time:\n"
                    "\n"
                    "```python\n"
                    "import re\n"
                    "\n"
                    "def run_sql(engine, name: str, **params) -> pd.DataFrame:\n"
                    '    sql = Path("sql", f"{name}.sql").read_text()\n'
                    '    wanted = set(re.findall(r"(?<!:):([a-z_]+)", sql))\n'
                    "    if wanted != set(params):\n"
                    '        raise ValueError(f"{name}.sql expects {sorted(wanted)}, got {sorted(params)}")\n'
                    "    with engine.connect() as conn:\n"
                    "        return pd.read_sql(text(sql), conn, params=params)\n"
                    "```"
                ),
                u("It was :end_date in the file. Your guard would have caught it, added it."),
                a("Good. That helper will save you the same five minutes many times over."),
                u(
                    "Last thing for today: Dev asked for the monthly flash as an email with the 4 headline "
                    "numbers and one chart. Is that a separate script?"
                ),
                a(
                    "Same pipeline, different output: load, clean and convert are identical, only the tables "
                    "and charts at the end differ. A `--flash` mode in `run_report.py` that stops after the "
                    "headline table and one chart keeps the logic in one place, so the flash and the "
                    "quarterly report can never disagree about what revenue is.\n"
                    "\n"
                    "```python\n"
                    'parser.add_argument("--quarter", help="e.g. 2026Q2, for the full report")\n'
                    'parser.add_argument("--month", help="e.g. 2026-04, for the flash")\n'
                    "\n"
                    "if args.month:\n"
                    '    start, end = month_bounds(args.month, CONFIG["report"]["timezone"])\n'
                    "    orders = build_orders(engine, start, end)\n"
                    '    write_flash(orders, out_dir=Path("out") / args.month)\n'
                    "else:\n"
                    "    write_quarterly(build_orders(engine, *quarter_bounds(args.quarter, tz)), "
                    'out_dir=Path("out") / args.quarter)\n'
                    "```"
                ),
            ],
        ),
        Session(
            "2026-05-06T16:40:00Z",
            [
                u(
                    "The refactor is in git now, 11 files, runs end to end for Q1 and reproduces the board "
                    "numbers exactly. Dev reviewed it and was happy. Next: the April flash should go out "
                    "automatically on the 3rd of each month. We have a small analytics VM with cron. How "
                    "would you do the email part?"
                ),
                a(
                    "Reproducing the board numbers exactly is the best possible test of a refactor, nice.\n"
                    "\n"
                    "For the email, the standard library is enough. Build the message with the headline "
                    "numbers in the body and the chart attached:\n"
                    "\n"
                    "```python\n"
                    "# report/mail.py\n"
                    "import smtplib\n"
                    "from email.message import EmailMessage\n"
                    "from pathlib import Path\n"
                    "\n"
                    "def send_flash(month: str, headline: dict, chart: Path, to: list[str], smtp_host: str) "
                    "-> None:\n"
                    "    msg = EmailMessage()\n"
                    '    msg["Subject"] = f"Sales flash {month}"\n'
                    '    msg["From"] = "analytics@pellworth.example"\n'
                    '    msg["To"] = ", ".join(to)\n'
                    '    body = "\\n".join(f"{name}: {value}" for name, value in headline.items())\n'
                    '    msg.set_content(f"Sales flash for {month}\\n\\n{body}\\n\\nChart attached. Numbers '
                    'are preliminary.")\n'
                    '    msg.add_attachment(chart.read_bytes(), maintype="image", subtype="png", '
                    "filename=chart.name)\n"
                    "    with smtplib.SMTP(smtp_host, 587) as s:\n"
                    "        s.starttls()\n"
                    "        s.send_message(msg)\n"
                    "```\n"
                    "\n"
                    "And the cron line on the VM, at 07:00 on the 3rd, for the previous month:\n"
                    "\n"
                    "```cron\n"
                    '0 7 3 * *  cd /opt/quarterly-report && ./venv/bin/python run_report.py --month "$(date '
                    "-d 'last month' +\\%Y-\\%m)\" --send >> logs/flash.log 2>&1\n"
                    "```\n"
                    "\n"
                    "The `%` signs have to be escaped in a crontab, otherwise cron treats them as newlines; "
                    "that's the most common reason a command works in the shell and not in cron.",
                    key="rc-req-mail",
                ),
                u("Why the 3rd and not the 1st?"),
                a(
                    "Two reasons: late refunds and late data. Orders from the last evening of the month, "
                    "refunds processed the next morning, and any nightly sync that runs late all land in the "
                    "first day or two. On the 3rd the month is mostly settled, and the flash won't need a "
                    "correction the week after. If Dev wants it on the 1st, it's one number in the cron line, "
                    'but I\'d label it "preliminary" either way, which the template does.'
                ),
                u(
                    "He's fine with the 3rd. Dry run for April gave:\n"
                    "\n"
                    "```\n"
                    "Sales flash 2026-04\n"
                    "Net revenue: 1,704,221.37\n"
                    "Growth vs April 2025: 0.0731\n"
                    "Orders: 21,884\n"
                    "New customers: 0.3126\n"
                    "```\n"
                    "\n"
                    "which breaks my own rule about decimals and units, ha"
                ),
                a(
                    "It does. The headline dict should hold display strings, formatted in one place:\n"
                    "\n"
                    "```python\n"
                    "def headline(month_df: pd.DataFrame, last_year_df: pd.DataFrame) -> dict[str, str]:\n"
                    '    net = month_df["net_amount_eur"].sum()\n'
                    '    net_ly = last_year_df["net_amount_eur"].sum()\n'
                    '    new_share = month_df.loc[month_df["customer_type"] == "new", '
                    '"net_amount_eur"].sum() / net\n'
                    "    return {\n"
                    '        "Net revenue": f"{net / 1000:,.1f} k€",\n'
                    '        "Growth vs last year": f"{(net / net_ly - 1) * 100:.1f}%",\n'
                    '        "Orders": f"{len(month_df):,} orders",\n'
                    '        "Revenue from new customers": f"{new_share * 100:.1f}%",\n'
                    "    }\n"
                    "```\n"
                    "\n"
                    'Which gives "1,704.2 k€", "7.3%", "21,884 orders" and "31.3%".'
                ),
                u("Good. Can we have tests? Dev wants CI on the repo. What would you test in something like this?"),
                a(
                    "Not the numbers themselves (they change with the data), but the pieces of logic that "
                    "were wrong at some point or easily could be:\n"
                    "\n"
                    "```python\n"
                    "# tests/test_logic.py\n"
                    "import pandas as pd\n"
                    "import pytest\n"
                    "\n"
                    "from report.clean import clean_orders\n"
                    "from report.dates import quarter_bounds, same_quarter_last_year\n"
                    "\n"
                    "def test_quarter_bounds_are_local_and_end_exclusive():\n"
                    '    start, end = quarter_bounds("2026Q2", "Europe/Stockholm")\n'
                    '    assert start == pd.Timestamp("2026-04-01", tz="Europe/Stockholm")\n'
                    '    assert end == pd.Timestamp("2026-07-01", tz="Europe/Stockholm")\n'
                    "\n"
                    "def test_same_quarter_last_year():\n"
                    '    assert same_quarter_last_year("2026Q1") == "2025Q1"\n'
                    "\n"
                    "def test_cleaning_drops_exact_duplicates_and_test_accounts():\n"
                    "    raw = pd.DataFrame({\n"
                    '        "order_id": [1, 1, 2, 3],\n'
                    '        "customer_id": [10, 10, 100001, 11],\n'
                    '        "net_amount": [5.0, 5.0, 9999.99, 7.0],\n'
                    "    })\n"
                    "    cleaned = clean_orders(raw, excluded_customers={100001})\n"
                    '    assert cleaned["order_id"].tolist() == [1, 3]\n'
                    "```\n"
                    "\n"
                    "Each bug you've already met gets a test: the timezone boundary, duplicates, test "
                    "accounts, the legacy marketplace refunds. A tiny hand-made DataFrame per case is clearer "
                    "than fixtures loaded from files."
                ),
                u("Running pytest gives\n\n```\nModuleNotFoundError: No module named 'report'\n```"),
                a(
                    "pytest doesn't put the project root on the import path by default unless it finds a "
                    "config telling it to. Add to `pyproject.toml`:\n"
                    "\n"
                    "```toml\n"
                    "[tool.pytest.ini_options]\n"
                    'pythonpath = ["."]\n'
                    'testpaths = ["tests"]\n'
                    "```\n"
                    "\n"
                    "An empty `report/__init__.py` is also needed if it isn't there yet, so `report` is a "
                    "package."
                ),
                u(
                    "Green. 9 tests. Maggie pinged from Lisbon, she wants the Q1 charts for a partner meeting "
                    "there. Easy, they're in out/2026Q1."
                ),
                a(
                    "Nice side effect of the refactor: the charts are files you can hand over, and they'll "
                    "match the board deck exactly because they are the same files."
                ),
                u(
                    "One more thing. Joost asked if we can split new customers by acquisition channel "
                    "(newsletter, ads, partner referral). Is that in our data?"
                ),
                a(
                    "Not in `orders_v` as far as we've seen: the view has the channel where the order was "
                    "placed, not the acquisition channel (how the customer found you). Those usually live in "
                    "the marketing or web analytics data, keyed by session or by a first-touch attribute on "
                    "the customer record. Worth asking data engineering whether `customers` has something "
                    "like `first_touch_source`. If it does, it's one more join in `new_vs_returning.sql`:\n"
                    "\n"
                    "```sql\n"
                    "SELECT\n"
                    "    c.first_touch_source,\n"
                    "    COUNT(DISTINCT o.customer_id) AS new_customers,\n"
                    "    SUM(o.net_amount) AS net_local\n"
                    "FROM sales.orders_v AS o\n"
                    "JOIN sales.customers_v AS c\n"
                    "  ON c.customer_id = o.customer_id\n"
                    "WHERE o.status = 'completed'\n"
                    "  AND o.order_ts >= :start\n"
                    "  AND o.order_ts < :end\n"
                    "GROUP BY c.first_touch_source\n"
                    "ORDER BY new_customers DESC;\n"
                    "```\n"
                    "\n"
                    'This version counts every customer in the period, so it still needs the "first order '
                    'ever" condition from the existing query to be restricted to new ones.'
                ),
                u(
                    "Will ask them. OK, that's everything for now. The race is on the 16th so I'm tapering, "
                    "meaning more time for spreadsheets."
                ),
                a(
                    "Good luck on the 16th! The flash will go out on its own on 3 June, so that's one thing "
                    "fewer to think about."
                ),
            ],
        ),
    ],
    questions=[
        Question(
            "Pull last quarter's revenue per region from the orders table.",
            "uppercase",
            ["si-sql"],
            "standing-instruction",
        ),
        Question(
            "How did the Nordics do compared with the previous three months?",
            "one decimal",
            ["si-decimal"],
            "standing-instruction",
        ),
        Question(
            "Drop the test orders and fill in the missing discounts.",
            "never use inplace=True",
            ["si-inplace"],
            "standing-instruction",
        ),
        Question(
            "Show me how the quarter's sales split across categories.",
            "horizontal bar chart",
            ["pref-nopie"],
            "preference",
        ),
        Question(
            "Plot weekly order counts so I can eyeball the trend.",
            "plain matplotlib",
            ["pref-matplotlib"],
            "preference",
        ),
        Question(
            "Work out the average basket size per partner store for the appendix.",
            "heavy lifting in SQL",
            ["pref-sql"],
            "preference",
        ),
        Question(
            "When is the Q1 report due?",
            "April 14",
            ["ku-deadline-2"],
            "knowledge-update",
            superseded=["ku-deadline-1"],
        ),
        Question("Who is my manager?", "Dev Raman", ["ku-manager-2"], "knowledge-update", superseded=["ku-manager-1"]),
        Question(
            "What growth target are we measuring Q1 against?",
            "6.5%",
            ["ku-target-2"],
            "knowledge-update",
            superseded=["ku-target-1"],
        ),
        Question(
            "Which problems did we find in the raw orders data?",
            "duplicate order IDs; QA test account; refunds recorded as positive amounts",
            ["mt-issue-1", "mt-issue-2", "mt-issue-3"],
            "multi-turn",
        ),
        Question(
            "What was Q1 total net revenue, and how much of it came from the Nordics?",
            "€4.82M; €1.49M",
            ["mt-total", "mt-nordics"],
            "multi-turn",
        ),
        Question(
            "Which extra breakdowns were asked for on top of the regional view?",
            "sales channel; new vs returning customers; top 20 SKUs",
            ["mt-cut-1", "mt-cut-2", "mt-cut-3"],
            "multi-turn",
        ),
        Question("Who owns the orders view in the warehouse?", "Ravi", ["sf-ravi"], "single-fact"),
        Question(
            "What did you say explained the gap between the Looker dashboard and my query?",
            "shipping fees",
            ["sf-gap"],
            "single-fact",
        ),
        Question("Which race am I training for?", "Gothenburg half marathon", ["sf-race"], "single-fact"),
        Question("What kind of colour blindness does Maggie have?", "red-green", ["sf-colour"], "single-fact"),
        Question(
            "Which function converts the SEK, NOK and GBP amounts to euros?", "normalise_currency", ["code-fx"], "code"
        ),
        Question(
            "In the repeat-customer query, which column marks a customer's first purchase?",
            "first_order_date",
            ["code-firstorder"],
            "code",
        ),
        Question(
            "Where does the loading script cache the raw orders on disk?",
            "data/cache/orders_q1.parquet",
            ["code-parquet"],
            "code",
        ),
        Question(
            "Add a check to the sanity function we wrote that fails when an order has no sales channel.",
            "don't add up to order net",
            ["rc-req-check"],
            "request-context",
        ),
        Question(
            "Make the date-range helper take a single month like '2026-04' as well, so the flash can use it.",
            "1 April 00:00 to 1 July 00:00",
            ["rc-req-bounds"],
            "request-context",
        ),
        Question(
            "Change the monthly email so Maggie gets a copy in CC.", "smtplib", ["rc-req-mail"], "request-context"
        ),
    ],
)
