"""A user looking for a new job with an assistant's help, over ten weeks: a CV rewritten, cover letters,
a spreadsheet and a small script that track the applications, interview practice, references, an offer
with a salary and a relocation package that move while it is negotiated."""

from __future__ import annotations

import re
import textwrap

from bench.working_sessions.shape import Chat, Question, Session, a, u


def w(text: str) -> str:
    """``text`` as the speaker wrote it: the source's indentation dropped, prose lines wrapped for the
    source joined again, fenced blocks and list items kept line by line."""
    lines = textwrap.dedent(text).strip("\n").splitlines()
    out: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
            out.append(line)
            continue
        joinable = (
            not fenced
            and out
            and out[-1]
            and not out[-1].startswith("```")
            and line
            and not re.match(r"(\s|[-*>|]\s|\d+[.)]\s)", line)
        )
        if joinable:
            out[-1] += " " + line
        else:
            out.append(line)
    return "\n".join(out).strip()


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
            )
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
            )
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

                That counts rows still in `Applied` whose last contact is older than 14 days. Put the
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

CHAT = Chat(
    name="ws-05-job-search",
    sessions=[S1, S2, S3, S4],
    questions=[
        Question(
            "Write a quick thank-you to Ben after the second round.",
            "British spelling",
            ["jb-rule-british"],
            "standing-instruction",
        ),
    ],
)
