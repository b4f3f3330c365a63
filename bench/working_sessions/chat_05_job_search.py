"""A user looking for a new job with an assistant's help, over ten weeks: a CV rewritten, cover letters,
a spreadsheet and a small script that track the applications, interview practice, references, an offer
with a salary and a relocation package that move while it is negotiated."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u, w

S1 = Session(
    "2026-01-05T08:40:00Z",
    [
        u(
            w(
                r"""
                Happy new year, and here we go: I've decided this is the year I leave. I've been a product
                analyst at Corbel Retail for four years — pricing and promotions mostly, some A/B testing —
                and I'm stuck. My manager is lovely but there's no senior role above me and no budget to make
                one. I want a senior analyst or analytics lead role. Can you help me run this properly
                instead of panic-applying to everything on LinkedIn at midnight?
                """
            ),
            key="jb-intro",
        ),
        a(
            w(
                r"""
                Happy new year — and yes, let's make it a campaign rather than a midnight scroll. A plan
                that works for most people moving up a level:

                1. **Positioning first.** Decide the two or three things you want to be known for ("pricing
                   analytics", "experimentation", "owning a metric end to end") and rewrite the CV around
                   them.
                2. **A short list, not a long one.** Ten to fifteen companies you'd genuinely take, rather
                   than fifty applications that all get a generic letter.
                3. **Tracking.** One place that records where you applied, who you spoke to, and when to
                   chase.
                4. **Practice.** Interview answers rehearsed out loud before you need them, not after.

                If you paste your current CV I'll start with that — it's usually where the quickest wins
                are.
                """
            )
        ),
        u(
            "One more thing before I paste it: use British spelling in anything I'll send out. I've had a US "
            "spell-checker embarrass me before.",
            key="jb-rule-british",
        ),
        a("Noted — British spelling throughout: organise, analyse, programme, and so on."),
        u(
            "And please never name my current employer in anything external. Just call it 'a national "
            "retailer' — word gets around in Manchester.",
            key="jb-rule-employer",
        ),
        a(
            'Understood. In your CV, letters and profiles it\'ll be "a national retailer"; here between us '
            "I'll still say Corbel so we both know what we mean."
        ),
        u(
            w(
                r"""
                Here's the CV, copied out of Word, sorry about the formatting:

                ```
                PROFILE
                Passionate, results-driven analyst with a proven track record of leveraging data to drive
                synergies across the business.

                EXPERIENCE
                Product Analyst, Corbel Retail, 2022–present
                - Responsible for weekly pricing reports
                - Worked on A/B tests for promotions
                - Built dashboards in Looker

                Data Analyst, Fieldstone Media, 2019–2021
                - SQL reporting for the ad sales team
                - Helped migrate reports from Excel to Tableau

                EDUCATION
                BSc Geography, University of Hull, 2018
                ```
                """
            ),
            key="jb-cv",
        ),
        u(
            "Reading that back: I hate corporate buzzwords. 'Passionate', 'leverage', 'synergy' — I don't know "
            "who wrote that profile but it was me at 1am. If you put those in anything, I'll know.",
            key="jb-pref-buzzwords",
        ),
        a(
            w(
                r"""
                Ha — agreed, and recruiters skip them too. The bigger issue is that the bullets describe
                duties rather than results. "Responsible for weekly pricing reports" says what you were
                assigned; what hiring managers want is what changed because of you. Some questions to dig
                out the numbers:

                - The A/B tests: how many did you run, and did any change a decision? (e.g. "a promotion we
                  stopped because the test showed it cannibalised full-price sales")
                - The Looker dashboards: who used them, and what did they replace?
                - The pricing reports: did they ever lead to a price change you can put a figure on?

                Also: there's a gap between Fieldstone ending in 2021 and Corbel starting in 2022. Recruiters
                will ask. Do you want to address it on the page?
                """
            )
        ),
        u(
            "The gap was when my dad was ill, about eight months. I don't mind it being known but I don't want "
            "to write an essay about it."
        ),
        a(
            w(
                r"""
                Then one line is enough, and it's very common — nobody reasonable holds it against you. Put
                it in the timeline where it happened:

                ```
                Career break, 2021–2022 — caring for a family member
                ```

                That's it. No explanation beyond that on the CV; if an interviewer asks, a sentence ("my dad
                was ill, he's doing well now, and I was glad I could be there") and move on.
                """
            ),
            key="jb-fact-gap",
        ),
        u(
            "Good. Numbers: I ran about 30 tests in two years. One stopped a 3-for-2 on kettles that was "
            "eating full-price sales, saved an estimated £180k. The dashboards replaced a 40-tab Excel file "
            "the category managers hated."
        ),
        a(
            w(
                r"""
                Those are great — that's a CV now. Rewritten experience for Corbel, with the employer
                anonymised as agreed:

                ```
                Product Analyst, a national retailer, 2022–present
                - Designed and analysed around 30 promotion A/B tests in two years; one showed a
                  3-for-2 offer was cannibalising full-price sales, and stopping it saved an estimated £180k
                - Replaced a 40-tab Excel workbook with Looker dashboards now used weekly by the category
                  managers
                - Produce the weekly pricing report that the trading team uses to set prices
                ```

                I'll do the profile once we've settled your positioning — it should be the last thing you
                write, not the first.
                """
            )
        ),
        u(
            "Love it. I already sent one application on Saturday before I came to my senses — Corrib Energy, "
            "a senior analyst role in their customer team. With the old CV. Oh well.",
            key="jb-applied-corrib",
        ),
        a(
            "Not a disaster — if they come back, you'll send the new CV ahead of any interview. Let's get the "
            "rest of it right before the next one goes out."
        ),
    ],
)

S2 = Session(
    "2026-01-09T19:15:00Z",
    [
        u(
            "Positioning. I think I want to be 'the pricing and experimentation person'. That's what I'm good "
            "at and it's what I enjoy. Does that sound narrow?"
        ),
        a(
            w(
                r"""
                It sounds *specific*, which is better than narrow. Lots of companies need both — retail,
                subscriptions, marketplaces, energy — and very few candidates can say they've done both with
                results attached. A profile built on it:

                ```
                PROFILE
                Analyst specialising in pricing and experimentation. Four years designing promotion tests
                and pricing reports in retail, with decisions and savings to show for it. Comfortable
                owning the numbers end to end: SQL, Looker and Tableau, and the conversation with the people
                who act on them.
                ```

                No buzzwords, you'll notice. "Specialising" is the British spelling.
                """
            )
        ),
        u(
            "Yes. Ok, second application: Larkspur Labs, Senior Analyst, Pricing. It's a subscription meal-kit "
            "company, they've just raised money. Here's the ad: 'You'll own pricing analysis across our three "
            "plans and design the experiments that shape them.' Basically my profile.",
            key="jb-applied-larkspur",
        ),
        a("That's a very good fit. Want a cover letter for it? Paste anything from the ad you think matters."),
        u(
            "From now on, keep cover letters under 250 words. Recruiters skim, and mine always balloon.",
            key="jb-rule-250",
        ),
        a(
            w(
                r"""
                Will do. Here's a draft — 214 words:

                > Dear Hiring Team,
                >
                > Your advert says the role will "own pricing analysis across our three plans and design the
                > experiments that shape them". That is the job I do now, and the one I want to do more of.
                >
                > For the past four years I have been a product analyst at a national retailer, where I've
                > designed around 30 promotion tests. One of them showed that a 3-for-2 offer was eating
                > full-price sales; stopping it saved an estimated £180k. I also replaced a 40-tab workbook
                > with Looker dashboards that the category managers now use every week.
                >
                > Subscriptions are new to me, but the questions are familiar: which customers are price
                > sensitive, what a discount really costs, and how to test a change without fooling
                > yourself. I'd bring a habit of designing experiments so that their result changes a
                > decision, and of explaining that result to the people who have to act on it.
                >
                > I'd welcome the chance to talk about how you're thinking about your plans.
                >
                > Yours faithfully,

                If LinkedIn shows who the hiring manager is, use their name — it reads better than "Dear
                Hiring Team", and then it's "Yours sincerely".
                """
            ),
            key="rc-req-letter",
        ),
        u("'Subscriptions are new to me' — should I admit that?"),
        a(
            w(
                r"""
                I'd keep it, because it's true, they'll see it on your CV anyway, and naming it lets you
                frame it. The sentence that follows turns it into a strength. What I'd avoid is apologising
                for it — no "although I have limited experience" phrasing.
                """
            )
        ),
        u("Fine, keeping it. Sent! Also, salary — the ad doesn't say. What should I ask for?"),
        a(
            w(
                r"""
                What are you on now, and do you know the market for senior analysts in your area? For a
                senior pricing analyst in Manchester or remote-from-Manchester, roles I've seen advertised
                range roughly £50k–£65k, higher at well-funded tech companies. A common approach is to know
                your number before they ask, and aim at the upper-middle of the range you can justify.
                """
            )
        ),
        u(
            "I'm on £46k. I was thinking of aiming for £55k, which already feels cheeky.",
            key="jb-salary-old",
        ),
        a(
            w(
                r"""
                It isn't cheeky — a move up a level usually comes with 15–25%, and £55k is about 20%.
                Don't anchor on your current salary too much; you're being hired for the new role, not paid
                a raise on the old one. If they ask for current salary, you can say "I'd rather focus on
                the range for this role — I'm looking for around £55k" (in the UK they can ask, but you don't
                have to answer).
                """
            )
        ),
        u("Ok. Biscuit needs walking, he's been staring at me for ten minutes. Thanks!"),
        a("Go — Biscuit's priorities outrank salary negotiation."),
    ],
)

S3 = Session(
    "2026-01-14T20:30:00Z",
    [
        u(
            "Tracking. I track everything in Google Sheets, not Excel — no Office licence at home, and I like "
            "that it's on my phone.",
            key="jb-pref-sheets",
        ),
        a(
            w(
                r"""
                Sheets is perfect for this. A layout that's worked for a lot of people:

                | A: Company | B: Role | C: Status | D: Applied | E: Last contact | F: Contact | G: Notes |
                |---|---|---|---|---|---|---|

                Status as a dropdown (Data → Data validation → Dropdown): `Applied`, `Screening`,
                `Interview`, `Offer`, `Rejected`, `Withdrawn`. Dates in D and E as real dates, not text,
                so formulas can do arithmetic on them.
                """
            )
        ),
        u(
            "Done. Can I get a count of applications that have gone quiet — applied more than two weeks ago, no "
            "contact since?"
        ),
        a(
            w(
                r"""
                Yes — in a cell at the top, say `I1`:

                ```
                =COUNTIFS(C2:C, "Applied", E2:E, "<" & (TODAY() - 14))
                ```

                `COUNTIFS` counts rows still in `Applied` whose last contact is older than 14 days. Put the
                applied date in E as well when you first apply, so a row with no reply at all is counted
                too. If you'd rather see *which* ones, a filter view:

                ```
                =FILTER(A2:B, C2:C = "Applied", E2:E < TODAY() - 14)
                ```

                returns the company and role of each quiet one.
                """
            ),
            key="jb-code-countifs",
        ),
        u("=COUNTIFS gives me #ERROR! — 'Formula parse error'"),
        a(
            w(
                r"""
                That's nearly always the locale. If your Sheets locale is set to a country that uses commas
                as decimal separators, the argument separator becomes a semicolon. Check File → Settings →
                Locale. Either set it to United Kingdom, or write:

                ```
                =COUNTIFS(C2:C; "Applied"; E2:E; "<" & (TODAY() - 14))
                ```
                """
            )
        ),
        u(
            "It was set to Germany?? No idea how. UK now, works. Count is 0, which is right — Corrib's only had "
            "eleven days."
        ),
        a("Right — Corrib tips over into the count on the 17th. That's about when a nudge is worth it anyway."),
        u("What's a normal time to wait before chasing?"),
        a(
            w(
                r"""
                For an application through a careers page, about two weeks is reasonable; if you have a
                named recruiter, ten working days. One polite chase, then let it go. Something like:

                > Hi Aoife — I applied for the Senior Analyst role in the customer team on 3 January and
                > wanted to check whether it's still open. I'm very interested, and happy to share anything
                > else that would help. Best wishes,

                Short, no guilt-tripping, easy to answer.
                """
            )
        ),
        u("Who's Aoife? lol"),
        a(
            "A placeholder — I made the name up. Use whoever's named on the ad or the recruiter you find on "
            'LinkedIn; if there\'s nobody, the careers inbox and "Hi there" is fine.'
        ),
        u(
            "Found the recruiter, she's called Niamh. Close enough. I'll chase on the 17th. Also adding a "
            "column for the salary band when the ad has one."
        ),
        a("Good idea — and a column for where you found the role, so you know later which source actually worked."),
    ],
)

S4 = Session(
    "2026-01-21T18:05:00Z",
    [
        u(
            "Corrib said no. Standard email, 'we've decided to move forward with candidates whose experience "
            "more closely matches'. Bit gutted even though I applied with the bad CV."
        ),
        a(
            w(
                r"""
                Sorry — even the ones you half-expect sting. Two things worth knowing: a form rejection
                this early usually means a screening filter or an internal candidate, not a judgement of
                you; and you sent the old CV, so this tells us very little about the new one. Mark it
                `Rejected` and keep the row — the data's useful later.
                """
            )
        ),
        u(
            "Larkspur replied though! A recruiter called Jonah Whitfield emailed to set up a first call. So "
            "Jonah's my contact there.",
            key="jb-contact-old",
        ),
        a(
            w(
                r"""
                That's great news — and quick, which is a good sign for how they run hiring. For a recruiter
                first call, expect 20–30 minutes on:

                - why you're looking and why them
                - your salary expectations (they'll ask — have your number ready)
                - notice period and availability
                - a quick walk through your CV

                Do you know your notice period?
                """
            )
        ),
        u("One month, I think.", key="jb-notice-old"),
        a(
            "Worth checking your contract rather than trusting memory — notice periods sometimes change with "
            "a promotion, and it matters to them when they plan a start date."
        ),
        u(
            "I'll check. Third application going out tonight: Ostrander Health, Analytics Lead. It's a "
            "step up — leading two analysts. NHS-adjacent, they do patient booking software.",
            key="jb-applied-ostrander",
        ),
        a(
            w(
                r"""
                An Analytics Lead role is a good stretch to have in the mix. The letter should lean on the
                parts of your work that are about influence rather than analysis — you explaining results
                to category managers, changing a decision. Here's a draft, 231 words:

                > Dear Ms Adebayo,
                >
                > I'm applying for the Analytics Lead role. I'm a product analyst at a national retailer,
                > where over four years I've moved from producing reports to shaping decisions: designing
                > around 30 promotion tests, one of which stopped an offer that was costing an estimated
                > £180k, and replacing a 40-tab workbook with dashboards the category teams now rely on.
                >
                > Much of that work was persuasion as much as analysis — helping people who didn't ask for
                > a test understand why its result should change their plans. That is the part of the job
                > I'd most like to do more of, and the part I think an analytics lead is for: setting the
                > questions, making sure the answers are sound, and getting them used.
                >
                > I haven't managed analysts formally, but I've onboarded and mentored the two juniors who
                > joined my team, including reviewing their SQL and their first test designs.
                >
                > Patient booking is a field where a small improvement in a funnel means someone sees a
                > clinician sooner, and I'd value working on numbers that matter in that way.
                >
                > Yours sincerely,
                """
            )
        ),
        u("Is 'Ms Adebayo' right? The ad just says 'contact: T. Adebayo, Head of Data'."),
        a(
            'Without a first name or title, "Dear T. Adebayo" is safer than guessing Ms or Mr. Or look them '
            'up on LinkedIn — if they go by a first name there, "Dear Tunde" or whatever it is works well.'
        ),
        u("Tolu Adebayo, she/her on LinkedIn. Dear Tolu it is."),
        a("Perfect. Good luck with it."),
        u("Also Sam (my partner) asked whether Larkspur is in Manchester. I said I didn't know. Is it?"),
        a(
            "I don't know their office locations — worth asking Jonah on the first call. It affects more than "
            "the commute, so better to know early than after three rounds."
        ),
    ],
)

S5 = Session(
    "2026-01-28T19:45:00Z",
    [
        u(
            w(
                r"""
                Jonah call done, went fine I think. Notes while they're fresh:

                - first round is next Wednesday, an hour, with Sunita Rao, their Head of Pricing
                - it's "competency plus a case" — she'll give me a pricing scenario to talk through
                - they're hybrid. Office is in Bristol!! He asked if I'd consider relocating
                - I told him £55k when he asked, he didn't flinch
                """
            ),
            key="jb-interviewer-sunita",
        ),
        a(
            w(
                r"""
                That sounds like a good call — "didn't flinch" usually means you're inside their band. Two
                things to prepare separately: the competency questions, which we can rehearse, and the
                case, where what they're testing is how you structure a messy question out loud.

                Bristol is a bigger question, and it's better thought about now, calmly, than under the
                pressure of an offer. Do you want to talk it through before Wednesday, or after you see
                whether the role is right?
                """
            )
        ),
        u("After. One thing at a time. Let's practise."),
        u(
            "When we practise, give me answers in STAR format, and keep each one to about two minutes when spoken.",
            key="jb-rule-star",
        ),
        a(
            w(
                r"""
                Good — STAR keeps you from wandering, and two minutes is about 250–300 spoken words. A likely
                one from a Head of Pricing: *"Tell me about a time your analysis changed a decision."*
                Using your kettle test:

                - **Situation** — The trading team planned to run a 3-for-2 on small appliances through the
                  spring, as they had the year before.
                - **Task** — I was asked to measure the promotion's uplift, and I suspected the uplift
                  was coming partly from customers who would have paid full price.
                - **Action** — I set up a test across matched stores: half ran the offer, half didn't.
                  Alongside promotion sales I tracked full-price sales of the same lines, and I agreed the
                  success measure with the trading manager before we started, so nobody could move the
                  goalposts afterwards.
                - **Result** — The offer stores sold more units but made less margin: full-price sales fell
                  by more than the uplift. The promotion was stopped, which saved an estimated £180k over the
                  season, and agreeing the measure up front became standard for our tests.

                Say it out loud with a timer. If it's over two and a half minutes, cut the Situation first.
                """
            )
        ),
        u("2:10. The Action bit is where I ramble."),
        a(
            w(
                r"""
                That's normal — Action is where the detail lives. Keep only the decisions *you* made
                (matched stores, tracking full-price, agreeing the measure first) and drop how you did them.
                If she wants the detail, she'll ask, and a follow-up question is a good sign.
                """
            )
        ),
        u("What's the case likely to be? I've never done a pricing case in an interview."),
        a(
            w(
                r"""
                For a meal-kit company, I'd expect one of:

                1. *"We want to raise the price of our two-person plan by £1 a box. How would you decide
                   whether to?"*
                2. *"Our discount for first boxes is 60% off. Is it too generous?"*
                3. *"Customers on the family plan churn less. Should we push everyone to it?"*

                A structure that works for all three: what are we trying to optimise (revenue, margin,
                customers, lifetime value)? Who is affected and how would each group respond? What data do
                we already have, and what would we test? What could go wrong? Then a recommendation, even a
                tentative one — interviewers remember people who land somewhere.
                """
            )
        ),
        u("Let's do number 2 properly on the weekend. I'll write my answer and you critique it."),
        a("Deal. Write it as you'd say it, not as you'd write a report — that's what she'll hear."),
        u(
            w(
                r"""
                Sunday attempt at the 60% question:

                "First I'd want to know what the discount is for — getting trial, or getting subscribers who
                stay. Then I'd look at retention by first-box discount if they've ever varied it, because if
                people who came in at 40% stay as long as at 60%, the extra 20 points is wasted. If there's
                no variation, I'd test 40/50/60 in a few regions for a quarter, measuring 12-week retention
                and contribution, not just sign-ups. Risk: competitors all do 60% so we lose share at the
                top of the funnel."
                """
            )
        ),
        a(
            w(
                r"""
                That's strong. You found the real question (trial versus retention), used data before
                testing, named a metric that matters, and a risk. Two ways to lift it:

                - **Say the tension early.** "The discount buys sign-ups but might buy the wrong ones" in the
                  first sentence frames everything after it.
                - **Land it.** End with a tentative call: "My guess is 60% is too generous for the two-person
                  plan, where price sensitivity is lower, and I'd start the test there."

                And pause after you hear the question. Five seconds of thinking looks confident, not slow.
                """
            )
        ),
        u("Five seconds of silence feels like an hour. But ok."),
        a(
            "It always does from the inside. From the other side of the table it reads as someone taking the question "
            "seriously."
        ),
    ],
)

S6 = Session(
    "2026-02-04T21:10:00Z",
    [
        u(
            "Sunita interview done. I think it went well?? The case was the first-box discount one, almost "
            "exactly. I paused. She smiled. She asked two follow-ups on how I'd pick regions."
        ),
        a(
            w(
                r"""
                That's a good sign on several fronts — follow-ups on your method mean she was engaged with
                your answer, not just ticking boxes. While it's fresh, write down what she asked and what
                you'd answer differently: second rounds often pick up threads from the first.
                """
            )
        ),
        u(
            "Will do. Different topic: the spreadsheet is getting unwieldy. Can you write me a little script instead? "
            "I know some Python."
        ),
        a(
            w(
                r"""
                Sure — keep the sheet as the place you edit, export it as CSV when you want a summary, and
                let a script tell you what needs doing. Save as `tracker.py`:

                ```python
                import csv
                import sys
                from datetime import date, datetime

                TRACKER = "applications.csv"
                STALE_DAYS = 10
                OPEN = {"Applied", "Screening", "Interview"}


                def parse(day: str) -> date:
                    return datetime.strptime(day, "%d/%m/%Y").date()


                def main() -> None:
                    today = date.today()
                    with open(TRACKER, newline="", encoding="utf-8") as f:
                        rows = list(csv.DictReader(f))
                    by_status: dict[str, int] = {}
                    for row in rows:
                        by_status[row["Status"]] = by_status.get(row["Status"], 0) + 1
                    print("  ".join(f"{k}: {v}" for k, v in sorted(by_status.items())))
                    for row in rows:
                        if row["Status"] not in OPEN:
                            continue
                        quiet = (today - parse(row["Last contact"])).days
                        if quiet > STALE_DAYS:
                            print(f"chase {row['Company']} ({row['Role']}): {quiet} days quiet")


                if __name__ == "__main__":
                    sys.exit(main())
                ```

                It expects the sheet's column names as headers, and UK-format dates (`%d/%m/%Y`), which
                is what Sheets exports with the UK locale you set.
                """
            ),
            key="jb-code-tracker",
        ),
        u(
            w(
                r"""
                ```
                Traceback (most recent call last):
                  File "tracker.py", line 29, in <module>
                    sys.exit(main())
                  File "tracker.py", line 24, in main
                    quiet = (today - parse(row["Last contact"])).days
                  File "tracker.py", line 9, in parse
                    return datetime.strptime(day, "%d/%m/%Y").date()
                ValueError: time data '' does not match format '%d/%m/%Y'
                ```
                """
            )
        ),
        a(
            w(
                r"""
                A row with an empty "Last contact" — probably one you've just added. Fall back to the
                applied date when there's no contact yet:

                ```python
                last = row["Last contact"] or row["Applied"]
                if not last:
                    print(f"{row['Company']}: no dates at all, skipping")
                    continue
                quiet = (today - parse(last)).days
                ```

                Replace the `quiet = ...` line in the loop with those five.
                """
            )
        ),
        u(
            w(
                r"""
                ```
                Applied: 2  Interview: 1  Rejected: 1
                ```
                nothing to chase. satisfying. Fourth application went in this morning btw: Marlow & Finch,
                Senior Pricing Analyst, they're an insurance comparison site in Leeds. Hybrid, two days in.
                """
            ),
            key="jb-applied-marlow",
        ),
        a(
            "Leeds is a very reasonable commute from Manchester, and comparison sites live and die by pricing "
            "analysis, so that's a good fit. Do you want the usual letter, or did you already send one?"
        ),
        u("Sent one, adapted the Larkspur one myself. Under the limit, I counted."),
        a("Nice — you're getting faster at this than me."),
        u(
            "I'd much rather be in an office at least two days a week — fully remote at my last place nearly broke me.",
            key="jb-pref-office",
        ),
        a("Good to know, and worth a line in your notes for each role. Is something prompting that?"),
        u("A recruiter pinged me today about a role at Brightmoor, and it made me think about it."),
        a(
            w(
                r"""
                What's the Brightmoor role? Check the working pattern before anything else if that's a
                deal-breaker for you — it's often buried at the bottom of the ad.
                """
            )
        ),
        u("Haven't looked yet, just the InMail. Will check tomorrow. Night!"),
        a("Night."),
    ],
)

S7 = Session(
    "2026-02-11T12:20:00Z",
    [
        u(
            w(
                r"""
                Lunch break update, lots happening. Larkspur want a second round: a panel with Ben
                Achterberg, the VP of Growth, plus someone from finance, next Thursday. Jonah's gone on
                paternity leave, so Priyanka Mehta is handling my process now — she sent the invite. And I
                had coffee with my friend Rosa, who's a pricing manager at a subscription company in
                Bristol. She laughed at £55k. She said for Senior Pricing at a funded company that's just
                raised, £60–65k is normal and I should be going in at £62k. So that's my number now. Is it
                too late to change it, given I told Jonah £55k?
                """
            ),
            key="jb-s7-update",
        ),
        a(
            w(
                r"""
                Lots of good news there. On the number: it's not too late, but it's a delicate change, so
                be deliberate. A figure given in a first call is an early indication, not a contract, and
                the role has become clearer since — including the relocation question, which is a real cost
                to you. You might say to Priyanka, before or at the second round:

                > Having learned more about the scope of the role — owning pricing across all three plans —
                > and with the move to Bristol to consider, I'd be looking for a base of around £62k.

                Attach the change to something new (scope, relocation), not to "I asked around". And say
                it before an offer is written, not in response to one.
                """
            )
        ),
        u("Scope plus relocation, ok. That feels defensible."),
        a(
            "It is. And it's normal — recruiters hear revised expectations all the time. The thing they dislike "
            "is surprises at offer stage."
        ),
        u(
            "Speaking of relocation. Priyanka said the role needs Bristol three days a week, no way round it. "
            "Sam's a nurse at Wythenshawe and would need to find a new job. We've talked and we're open to it "
            "but it's a big deal.",
            key="jb-fact-sam",
        ),
        a(
            w(
                r"""
                It is a big deal, and it's good that you're talking about it together before there's an
                offer. Some things that help people decide:

                - **Costs in both directions.** Bristol rents are generally higher than south Manchester;
                  a nurse's salary is set nationally in the NHS, so Sam's pay wouldn't drop, but finding the
                  right post takes time.
                - **What the company contributes.** Many companies offer a relocation package — ask
                  Priyanka whether Larkspur does, and what it covers (moving costs, temporary housing).
                - **A trial period.** Some people commute weekly for the first few months before moving.
                  Painful, but it means you see the job before you sell the flat.
                - **Your fallback.** If Marlow & Finch comes through, you have a Leeds option with no move.

                No need to decide now. Ask about the package at the second round.
                """
            )
        ),
        u(
            w(
                r"""
                Brightmoor, by the way: 'fully distributed, no HQ'. Passing, per what I said last week.
                Told the recruiter thanks but no.
                """
            )
        ),
        a("Makes sense. Easier to say no early than to find out at the offer you'd be unhappy."),
        u("Panel prep. What does a VP of Growth ask a pricing analyst?"),
        a(
            w(
                r"""
                Growth people think in funnels and lifetime value, so expect:

                1. *"Tell me about a time you disagreed with a stakeholder about what the data said."*
                2. *"How would you measure the long-term effect of a price change, when churn takes months to
                   show up?"*
                3. *"What would you look at in your first 30 days?"*

                And finance will ask about margin and forecasting: "How confident would you be in a revenue
                forecast after a price rise, and how would you express that confidence?"

                For 2, the honest answer is leading indicators (skip rates, pause rates, plan downgrades in
                the first weeks) validated against the cohort once churn does show up. Want to rehearse 1?
                """
            )
        ),
        u("Later in the week. Back to work, lunch is over."),
        a("Go. We'll rehearse before Thursday."),
    ],
)

S8 = Session(
    "2026-02-21T10:30:00Z",
    [
        u(
            w(
                r"""
                Ostrander got back! They skipped the screening call and sent a take-home: a dataset of
                appointment bookings from a (fake) GP practice, and I have to find what drives missed
                appointments and present it in 15 minutes next week. Due Monday.
                """
            ),
            key="jb-fact-takehome",
        ),
        a(
            w(
                r"""
                Great news — and a take-home that plays to your strengths. A few things that set good
                submissions apart:

                - **Lead with the answer.** Slide 1: "Missed appointments are driven mostly by X and Y; here's
                  what I'd try."
                - **One clean chart per point.** Lead-time-to-appointment against no-show rate is almost
                  always the first one in booking data.
                - **Say what you'd test.** Reminders, overbooking, shorter lead times — propose one
                  experiment; that's your strength.
                - **Caveats on one slide**, not scattered everywhere.

                Timebox it. They know you have a job; a focused four hours beats a sprawling twelve.
                """
            )
        ),
        u("What tools do they expect? It says 'any'."),
        a(
            w(
                r"""
                Then pick whatever lets you go fastest and show your thinking: SQL or Python for the
                analysis, and Google Slides for the presentation. Share the notebook or the queries as an
                appendix so they can see how you got there. Don't build a dashboard — it takes the hours you
                need for the story.
                """
            )
        ),
        u(
            w(
                r"""
                Ugh, bad news from a different direction. I finally dug out my contract to check the notice
                period like you said. It's three months, not one — it was changed when I got promoted in
                2024 and I never noticed. HR confirmed it today. That could be a problem for Larkspur, they
                said they wanted someone by April. Also my manager noticed me taking a long lunch on Thursday
                for the panel and asked if I'm 'alright'. I said dentist. I hate lying to her.
                """
            ),
            key="jb-notice-new",
        ),
        a(
            w(
                r"""
                Two different things, both very common.

                **The notice period.** Three months is normal at your level, and employers hiring senior
                people plan around it; companies that "want someone by April" usually mean "as soon as
                reasonably possible". Tell Priyanka now, not at offer: "I've checked my contract and my
                notice is three months; I'd ask my employer about an earlier release." Many employers agree
                to shorten notice, especially if you offer a good handover. Don't promise it, though.

                **Your manager.** It's understandable to feel bad. You're not obliged to tell her you're
                looking, and until there's an offer there's nothing to tell. Booking interviews as "a personal
                appointment" is truthful and enough — you don't need to invent a dentist next time.
                """
            )
        ),
        u("'Personal appointment'. Yes. Much better."),
        u(
            "Second round went fine btw, I forgot to say. Ben was nice, the finance person was intense. "
            "They want references already — is that a good sign?"
        ),
        a(
            w(
                r"""
                Asking for references after the final round is usually a very good sign — companies don't
                bother for candidates they aren't considering for an offer. Who will you give?

                Convention is two: one recent manager, one other senior person who knows your work. Since
                your current manager doesn't know you're looking, most people give a previous manager and a
                senior colleague or client, and say "current employer on offer" — that's standard, and
                recruiters understand.
                """
            )
        ),
        u(
            "First one's easy: Helen Quayle, my old manager at Fieldstone. She's head of insight somewhere "
            "else now and she's already said yes.",
            key="jb-ref-helen",
        ),
        a(
            w(
                r"""
                Ideal — a former manager who's now senior carries weight. Send her a short note with the
                role and what you'd like her to speak to, so she's not caught off guard:

                > Hi Helen — thank you again for agreeing to be a referee. The role is Senior Analyst,
                > Pricing at Larkspur Labs; they may contact you this week or next. If it helps, the things
                > they seem most interested in are experimentation and explaining results to non-analysts —
                > the Tableau migration at Fieldstone is probably the best example you saw. Thank you!

                And the second?
                """
            )
        ),
        u("Thinking about it. Will come back to you."),
        a("No rush — a day or two is fine, but let Priyanka know when to expect both."),
    ],
)

S9 = Session(
    "2026-02-26T18:30:00Z",
    [
        u(
            "Second referee sorted: Tom Birch, the trading manager from the kettle test. He's at Corbel but "
            "he's leaving next month himself, so he was happy to. Priyanka has both names.",
            key="jb-ref-tom",
        ),
        a(
            w(
                r"""
                Good choice — he saw the test change a decision first-hand, which is exactly what a pricing
                team wants to hear about. Since he's still inside Corbel, ask him to keep it to himself
                until you've resigned; most people do without being asked, but it's worth saying.
                """
            )
        ),
        u("Done. Also the Ostrander presentation was this morning. 15 minutes, 4 questions. Tolu was lovely."),
        a("How did it feel? And what did they ask — the questions often tell you what they worried about."),
        u(
            "Felt good. They asked about reminders by SMS, whether I'd managed anyone (no, honestly), how I'd "
            "prioritise requests from three teams, and whether I'd be ok with NHS procurement timelines. "
            "I laughed at that last one."
        ),
        a(
            w(
                r"""
                Those are good questions to get — the management one is the gap they'll weigh, and you
                answered it honestly, which matters more than people think. The prioritisation question is
                a lead-role question: they're imagining you in the job. Whatever happens, that's a useful
                signal that you're credible at the next level.
                """
            )
        ),
        u(
            w(
                r"""
                AND THEN. Priyanka called at 4. Larkspur are making an offer!! Written offer tomorrow, but on
                the phone: £60k base, 10% bonus target, 25 days holiday, and £5,000 towards relocation. Start
                date "as soon as possible, ideally mid-April".
                """
            ),
            key="jb-reloc-old",
        ),
        a(
            w(
                r"""
                Congratulations! That's a real achievement — from "stuck" to an offer in under two months.

                Now, calmly: you don't have to accept on the phone, and you shouldn't until the written
                offer arrives. Points to think about:

                - **Base:** £60k is £2k under the £62k you gave Priyanka. That gap is small enough to close.
                - **Relocation:** £5,000 is on the low side for a move between cities with a partner —
                  removals, deposits and a few weeks' overlap in rent can easily reach double that.
                - **Start date:** your notice is three months; mid-April isn't possible unless Corbel
                  releases you early, and they should hear that from you before you sign.

                It's usually better to ask for one or two things than five. I'd go for the base and the
                relocation, and set expectations on the date.
                """
            )
        ),
        u("Can you draft the email? I always sound either grovelling or aggressive."),
        a(
            w(
                r"""
                Here's one that's neither:

                > Hi Priyanka,
                >
                > Thank you for the call earlier — I'm delighted to receive the offer, and excited about the
                > role and the team.
                >
                > Before I confirm, there are two things I'd like to discuss. First, the base salary: as I
                > mentioned, I was looking for £62k, reflecting the scope of the role and the move to
                > Bristol, and I'd be grateful if you could look at meeting that. Second, the relocation
                > support: with my partner moving too, our realistic costs are closer to £9,000, and I
                > wondered whether there is flexibility there.
                >
                > On timing, my notice period is three months. I'll ask my employer about an earlier
                > release, and will let you know as soon as I can.
                >
                > I'm very keen to make this work.
                >
                > Best wishes,

                Send it after the written offer arrives, so you're responding to the document.
                """
            )
        ),
        u("£9,000 — did I tell you that? I didn't work it out."),
        a(
            w(
                r"""
                You didn't — I put it in as a placeholder, and I should have said so. Please replace it with
                your own estimate before sending: removal firm quotes, a deposit and first month in Bristol,
                any overlap on your Manchester rent, and travel while you look. If your real number is
                lower, use it; a figure you can explain is worth more than a round one.
                """
            )
        ),
        u("Sam worked it out tonight with actual quotes: £8,700. So close to your guess it's spooky. I'll use £8,700."),
        a("Spooky indeed. £8,700 it is — and now you can back it up if Priyanka asks."),
        u("Marlow & Finch want a screening call next week. Do I still do it?"),
        a(
            w(
                r"""
                If you're seriously considering Larkspur, it's still worth taking — until you've signed,
                a second process is your safety net, and it makes your "I'm very keen" sincere rather than
                desperate. If you've already decided you'll accept Larkspur whatever happens, then decline
                politely; their time matters too.
                """
            )
        ),
        u("I'll take the call. Safety net. Going to bed, too excited to sleep probably."),
    ],
)

S10 = Session(
    "2026-03-05T17:55:00Z",
    [
        u(
            w(
                r"""
                Larkspur came back on the email. Base up to £61.5k — not quite £62k but I'm not going to fight
                over £500. And they've upped the relocation to £8,000, plus two weeks of temporary housing in
                Bristol, which honestly is the bit that matters. I'm going to accept. Am I being daft taking
                £61.5k?
                """
            ),
            key="jb-reloc-new",
        ),
        a(
            w(
                r"""
                Not daft at all — that's a good negotiation. You asked for two things and got most of both,
                plus housing you didn't ask for, which tells you they want you. Pushing for the last £500
                would spend goodwill for very little. Accept in writing, warmly, and confirm the start date
                depends on your notice.
                """
            )
        ),
        u("Yes please, the acceptance email."),
        a(
            w(
                r"""
                > Hi Priyanka,
                >
                > Thank you for coming back so quickly, and for the revised offer — I'm very happy to accept:
                > a base of £61,500, with the relocation support and temporary housing as set out in your email.
                >
                > I'll speak to my manager this week and let you know my leaving date as soon as it's agreed.
                > My notice is three months, and I'll ask about an earlier release.
                >
                > I'm really looking forward to joining the team.
                >
                > Best wishes,
                """
            )
        ),
        u(
            "Sent. Now the bit I'm dreading: resigning. I'm seeing my manager tomorrow at 10. She's been good "
            "to me and I feel like I'm betraying her."
        ),
        a(
            w(
                r"""
                That feeling is normal, and it says good things about both of you. But leaving for a role
                that doesn't exist at Corbel isn't betrayal; she'll know that, and good managers are glad
                when people they developed move up. In the meeting:

                1. Tell her first, in person, before HR or anyone else.
                2. Lead with the news, then the thanks: "I've accepted a senior role elsewhere. I wanted
                   you to hear it from me, and to say thank you — I've learnt a lot working for you."
                3. Offer a good handover, and ask whether an earlier release is possible.
                4. Don't over-explain. You don't owe a justification.

                Then send the written resignation afterwards, the same day.
                """
            )
        ),
        u("Can you write the letter? Short."),
        a(
            w(
                r"""
                > Dear Maria,
                >
                > Please accept this letter as formal notice of my resignation from my role as Product
                > Analyst. I understand my notice period is three months, which would make my last working
                > day 5 June 2026. I'd be grateful if we could discuss an earlier release, and I'm committed
                > to a thorough handover in either case.
                >
                > Thank you for your support over the past four years. I've learnt a great deal.
                >
                > Yours sincerely,

                This one goes to Corbel, so it names nothing external, and there's no need to say where
                you're going; if she asks, that's your choice.
                """
            ),
            key="rc-req-resign",
        ),
        u("'Learnt' — is that a typo?"),
        a(
            'No — "learnt" is the usual British form ("learned" is fine in British English too, and standard in '
            "US English). Either works; I used the British one."
        ),
        u("Ha, ok. And I need to tell Ostrander and Marlow & Finch I'm withdrawing. One email I can adapt?"),
        a(
            w(
                r"""
                > Hi Tolu,
                >
                > Thank you for the time you and the team gave me, and for a genuinely enjoyable
                > presentation round. I've accepted another offer, so I'd like to withdraw my application.
                >
                > I'd be glad to stay in touch — I was impressed by what you're building.
                >
                > Best wishes,

                For Marlow & Finch, drop the middle sentence about the presentation, since you only had the
                screening call.
                """
            )
        ),
        u("Perfect. Sending both tonight. Wish me luck for 10am."),
        a("Good luck. You've done the hard part already."),
    ],
)

S11 = Session(
    "2026-03-20T19:40:00Z",
    [
        u(
            "Update: Maria was brilliant. She was sad but said she'd been expecting it, and HR agreed to "
            "release me after eight weeks instead of twelve. So I start at Larkspur on 11 May."
        ),
        a(
            "That's a lovely outcome — a good manager, an earlier release and a clear date. Congratulations "
            "again. Have you told Priyanka?"
        ),
        u("Yep, she's happy. Now: I need to update LinkedIn but I don't want to announce it until I've left."),
        a(
            w(
                r"""
                Sensible. You can change settings first, so nothing is broadcast: Settings → Visibility →
                "Share profile updates with your network" off. Then update the headline and experience
                whenever you like, and turn it back on after your last day if you want the
                congratulations. Want a new headline and About section ready for the day?
                """
            )
        ),
        u("Yes, but for the day I leave, not now."),
        a(
            w(
                r"""
                Then here's something for your last day:

                ```
                Senior Analyst, Pricing at Larkspur Labs · pricing and experimentation
                ```

                About:

                > I help companies price well and test what they change. Four years at a national retailer
                > designing promotion experiments and pricing reports, and now pricing across subscription
                > plans at Larkspur Labs. I care about experiments whose results change decisions, and about
                > explaining them to the people who make those decisions.
                """
            )
        ),
        u(
            "Sam's got an interview at Southmead hospital next week! So Bristol is looking very real. We're "
            "viewing flats in Bishopston on Saturday."
        ),
        a(
            w(
                r"""
                That's wonderful — Sam having a job lined up would take most of the stress out of the move.
                For the flat viewings, the usual Bristol advice: check the commute to the Larkspur office at
                rush hour, not on a Saturday, and ask whether the agent charges any fees beyond the deposit
                and first month (they shouldn't, since the Tenant Fees Act).
                """
            )
        ),
        u(
            "Good shout. Last thing, and then I'll stop bothering you: is there anything I should do in the "
            "last weeks at Corbel, apart from the handover?"
        ),
        a(
            w(
                r"""
                A few things people are glad they did:

                - Write down your results with numbers now, while you can check them — the next CV will
                  thank you.
                - Ask two or three colleagues for LinkedIn recommendations before you leave, while your work
                  is fresh for them.
                - Save any personal files off your work laptop, and nothing confidential.
                - Leave well: a clean handover document and a proper goodbye count for a long time in a
                  city where word gets around.
                """
            )
        ),
        u("Thank you for all of this, honestly. I'd have panic-applied to 60 places otherwise."),
        a("You did the work — I just kept the spreadsheet honest. Good luck in Bristol, and say hi to Biscuit."),
    ],
)

CHAT = Chat(
    name="ws-05-job-search",
    sessions=[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11],
    questions=[
        Question(
            "Write a quick thank-you to Ben after the second round.",
            "British spelling",
            ["jb-rule-british"],
            "standing-instruction",
        ),
        Question(
            "Draft what goes alongside my Ostrander application.",
            "under 250 words",
            ["jb-rule-250"],
            "standing-instruction",
        ),
        Question("Tidy up my LinkedIn headline.", "a national retailer", ["jb-rule-employer"], "standing-instruction"),
        Question(
            "Prep me for 'tell me about a time you disagreed with a stakeholder' before the panel.",
            "STAR format",
            ["jb-rule-star"],
            "standing-instruction",
        ),
        Question(
            "Rewrite the summary at the top of my CV.", "corporate buzzwords", ["jb-pref-buzzwords"], "preference"
        ),
        Question(
            "Someone's approached me about a job at Holloway Data where everybody works from home. Worth pursuing?",
            "at least two days a week",
            ["jb-pref-office"],
            "preference",
        ),
        Question(
            "How do I make the status column go red when something's overdue?",
            "Google Sheets",
            ["jb-pref-sheets"],
            "preference",
        ),
        Question(
            "What figure did I end up asking for as my base salary?",
            "£62k",
            ["jb-s7-update"],
            "knowledge-update",
            ["jb-salary-old", "jb-interviewer-sunita"],
        ),
        Question(
            "Who's handling my application at Larkspur?",
            "Priyanka Mehta",
            ["jb-s7-update"],
            "knowledge-update",
            ["jb-contact-old"],
        ),
        Question(
            "How long is my notice period?", "three months", ["jb-notice-new"], "knowledge-update", ["jb-notice-old"]
        ),
        Question(
            "How much is Larkspur putting towards the relocation?",
            "£8,000",
            ["jb-reloc-new"],
            "knowledge-update",
            ["jb-reloc-old"],
        ),
        Question(
            "Which companies have I applied to?",
            "Corrib Energy; Larkspur Labs; Ostrander Health; Marlow & Finch",
            ["jb-applied-corrib", "jb-applied-larkspur", "jb-applied-ostrander", "jb-applied-marlow"],
            "multi-turn",
        ),
        Question("Who are my two referees?", "Helen Quayle; Tom Birch", ["jb-ref-helen", "jb-ref-tom"], "multi-turn"),
        Question(
            "Who interviewed me in Larkspur's first round, and who was on the panel from growth?",
            "Sunita Rao; Ben Achterberg",
            ["jb-interviewer-sunita", "jb-s7-update"],
            "multi-turn",
        ),
        Question("What do I mostly work on in my current job?", "pricing and promotions", ["jb-intro"], "single-fact"),
        Question("Which university did I go to?", "University of Hull", ["jb-cv"], "single-fact"),
        Question(
            "How did we word the 2021 gap on my CV?", "caring for a family member", ["jb-fact-gap"], "single-fact"
        ),
        Question("What's the Ostrander take-home about?", "missed appointments", ["jb-fact-takehome"], "single-fact"),
        Question("What does Sam do for work?", "nurse at Wythenshawe", ["jb-fact-sam"], "single-fact"),
        Question(
            "Which spreadsheet function counts my applications that have gone quiet?",
            "COUNTIFS",
            ["jb-code-countifs"],
            "code",
        ),
        Question(
            "After how many days without contact does my tracker script tell me to chase?",
            "10",
            ["jb-code-tracker"],
            "code",
        ),
        Question("Which file does my tracker script read?", "applications.csv", ["jb-code-tracker"], "code"),
        Question(
            "Rewrite the letter I sent the meal-kit people for a pricing role at a broadband provider.",
            "Subscriptions are new to me",
            ["rc-req-letter"],
            "request-context",
        ),
        Question(
            "Change the letter for Maria so it asks to finish at the end of April instead.",
            "5 June 2026",
            ["rc-req-resign"],
            "request-context",
        ),
        Question(
            "Add a line to my chase script that prints the salary band next to each role it flags.",
            "tracker.py",
            ["jb-code-tracker"],
            "request-context",
        ),
    ],
)
