"""A harder recall set (``BENCH_RECALL_SET=hard``): fewer people, hundreds of turns each, and
questions built so that each single signal fails where it genuinely should.

Per person (about 400 turns over 20 sessions across half a year), four kinds of question:

- ``paraphrase``: the question shares (almost) no content word with its answer, and lexical
  traps hold the question's own words in unrelated statements; someone else's similar fact is
  a semantic competitor. The vector signal should find these, BM25 should not.
- ``exact``: the question hinges on one rare token (ticket, booking reference, serial, commit,
  host, invoice, path …); five near-duplicate siblings say the same thing with another token, so
  a vector match on the topic is a one-in-six guess. BM25 should find these, the vector should not.
- ``combined``: a paraphrased relation (who reviews, who handles, when flew, which doctor …)
  plus one ordinary distinguishing word (tool, area, city, body part); siblings share the
  relation with other values, lexical traps share the word in other contexts. Neither signal
  alone separates them.
- ``graph``: a value that changed (residence, employer, note-taking app); the question is
  worded after the old statement, the answer is the terse new one, which the engine links by
  SUPERSEDES. The old turn is named as superseded.

Filler: the default set's distractors plus chatter with more near misses of the same kinds.
Deterministic for a seed.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bench.conversations import CITIES, NAMES, Dataset, Question, Turn, distractor

SESSIONS = 20

# (answer, question, lexical traps holding the question's words, someone else's similar fact)
PARAPHRASE = [
    (
        "I'm allergic to {nut}, even a trace puts me in hospital.",
        "Is there any food the user has to stay away from for medical reasons?",
        [
            "The food at the medical conference was bland for no good reason.",
            "We had to stay away from the beach, the reasons were never explained.",
        ],
        "My brother is allergic to {nut2}.",
    ),
    (
        "Heights terrify me, I won't even climb a ladder to change a bulb.",
        "What is the user afraid of?",
        [
            "The documentary asked what people were most afraid of as children.",
            "Nobody is afraid of the new manager, she is friendly.",
        ],
        "My nephew gets scared of thunderstorms.",
    ),
    (
        "I grew up speaking {lang} at home with my grandparents.",
        "Which language is the user's mother tongue?",
        [
            "The tongue twister in the language app made everyone laugh.",
            "My mother bought a new language course she never opened.",
        ],
        "My flatmate grew up speaking {lang2}.",
    ),
    (
        "I'm out of bed at {time} every day, long before sunrise.",
        "When does the user wake up in the morning?",
        [
            "The morning bus does not run when it snows.",
            "We wake the dog up when the user of the flat upstairs comes home.",
        ],
        "My partner sleeps in until nine on weekdays.",
    ),
    (
        "I drive a {colour} {car} that I bought second-hand.",
        "What vehicle does the user own?",
        [
            "The user manual for the vacuum cleaner went missing.",
            "Who will own the vehicle inspection problem at work is unclear.",
        ],
        "My neighbour rides a {colour2} scooter to work.",
    ),
    (
        "I studied {subject} at university in {city}.",
        "What was the user's degree in?",
        ["It was thirty degrees in the shade yesterday.", "The user survey asked about degree of satisfaction."],
        "My cousin trained as {subject2} at a college.",
    ),
    (
        "My partner {pname} works as a {pjob}.",
        "Who is the user married to?",
        ["Who is married to whom in that series confuses me.", "The user group met at the registry office hall."],
        "My best friend {pname2} just got engaged.",
    ),
    (
        "At weekends I sell {craft} at the market for some cash on the side.",
        "How does the user earn extra income?",
        ["The extra income tax form is due in April.", "How do they earn so much, the user asked on the forum."],
        "My colleague tutors maths in the evenings.",
    ),
    (
        "I've had two knee operations after a skiing accident.",
        "Has the user ever had surgery?",
        ["The surgery car park has new ticket machines.", "Has anyone ever had the soup at the user meetup?"],
        "My father had his hip replaced last winter.",
    ),
    (
        "I'm learning to play the {instrument}, my teacher comes on Tuesdays.",
        "Which musical skill is the user practising?",
        [
            "Practising for the musical at the school took all term.",
            "Which skill matters most was the question at the user conference.",
        ],
        "My niece sings in a choir.",
    ),
    (
        "The smell of {dislike} makes me gag.",
        "What does the user find disgusting?",
        [
            "I find the new tax rules disgusting, said a caller on the radio.",
            "The user forum thread about what people find odd was long.",
        ],
        "My sister cannot stand the sight of mushrooms.",
    ),
    (
        "I've been off cigarettes for {years} years now and feel much better.",
        "Does the user smoke?",
        ["Smoke from the barbecue next door drifted in.", "The smoke alarm in the user's old office went off twice."],
        "My uncle still rolls his own tobacco.",
    ),
]
NUTS = ["peanuts", "cashews", "walnuts", "hazelnuts", "almonds", "pistachios"]
LANGS = ["Portuguese", "Tagalog", "Swahili", "Finnish", "Gujarati", "Welsh", "Basque", "Estonian"]
TIMES = ["5:10", "5:30", "4:45", "5:50", "4:30"]
COLOURS = ["red", "silver", "green", "white", "dark blue", "yellow"]
CARS = ["hatchback", "estate car", "pickup truck", "minivan", "convertible"]
SUBJECTS = ["marine biology", "economics", "civil engineering", "philosophy", "geology", "linguistics"]
SUBJECTS2 = ["an electrician", "a chef", "a plumber", "a paramedic"]
JOBS = ["midwife", "translator", "firefighter", "surveyor", "dentist", "florist"]
CRAFTS = ["hand-made candles", "pickled vegetables", "knitted hats", "sourdough loaves", "wooden spoons"]
INSTRUMENTS = ["cello", "trumpet", "banjo", "harp", "accordion", "oboe"]
DISLIKES = ["fish sauce", "durian", "blue cheese", "boiled cabbage", "liquorice"]

# (answer template with {tok}, question with {tok}, token maker)
EXACT = [
    ("Ticket {tok} tracked the database outage on the {thing} cluster.", "What does ticket {tok} cover?", "ticket"),
    ("The booking reference for my flight to {city} is {tok}.", "Which trip is booking {tok} for?", "booking"),
    (
        "The laptop with serial number {tok} is the one with the {thing} problem.",
        "What is wrong with laptop {tok}?",
        "serial",
    ),
    ("The regression in the {thing} page came in with commit {tok}.", "What broke in commit {tok}?", "commit"),
    ("Invoice {tok} was for the {thing} software licence.", "What was invoice {tok} for?", "invoice"),
    ("The staging copy of the {thing} service runs on {tok}.", "What runs on {tok}?", "host"),
    ("Error {tok} appears when the {thing} job runs out of memory.", "When does error {tok} happen?", "error"),
    ("The settings for the {thing} worker live in {tok}.", "What is configured in {tok}?", "path"),
    ("My parcel with tracking code {tok} holds the {thing} team order.", "What is in parcel {tok}?", "parcel"),
    ("The feature flag {tok} turns on the {thing} redesign.", "What does flag {tok} switch on?", "flag"),
]
THINGS = [
    "billing",
    "search",
    "payments",
    "reporting",
    "login",
    "checkout",
    "inventory",
    "analytics",
    "email",
    "calendar",
    "mobile",
    "export",
]

# (sibling template, question template, trap templates): sibling values {a} (the distinguishing
# word) and {b} (the answer value); traps hold {a} in other contexts.
COMBINED = [
    (
        "{b} reviews all my {a} changes before they merge.",
        "Which co-worker checks the user's {a} work?",
        ["I read a long blog post about {a} over lunch.", "The {a} release notes were confusing."],
        ["Terraform", "Kubernetes", "Ansible", "Postgres", "Kafka", "Grafana", "Docker", "Redis"],
        NAMES,
    ),
    (
        "{b} on my team handles everything about {a}.",
        "Who is responsible for {a} in the user's group?",
        ["There was a talk about {a} at the meetup.", "Someone asked me about {a} at the bus stop."],
        ["invoicing", "hiring", "security audits", "onboarding", "backups", "vendor contracts", "on-call rotas"],
        NAMES,
    ),
    (
        "In {b} I flew to {a} for a customer workshop.",
        "When did the user travel to {a} for work?",
        ["{a} was on the news because of a heatwave.", "My friend keeps posting photos of {a}."],
        CITIES,
        ["January", "March", "April", "June", "August", "October", "November"],
    ),
    (
        "I see Dr {b} about my {a}.",
        "Which physician treats the user's {a}?",
        ["My {a} felt fine on the long walk.", "The yoga teacher talked about the {a} a lot."],
        ["knee", "back", "eyes", "teeth", "skin", "shoulder", "ears"],
        ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Castillo", "Novak", "Brennan"],
    ),
    (
        "On {a} evenings I go to {b} class.",
        "What does the user do on {a} nights?",
        ["{a} was rainy and grey.", "The shop is closed on {a} afternoons."],
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Sunday"],
        ["pottery", "spin", "life drawing", "Spanish", "judo", "choir", "improv"],
    ),
    (
        "My {a}'s birthday is on {b}.",
        "When was the user's {a} born?",
        ["My {a} phoned about the weather.", "I lent my {a} the ladder."],
        ["sister", "brother", "mother", "father", "grandmother", "uncle", "aunt"],
        ["3 February", "19 May", "7 July", "28 September", "11 November", "24 December", "15 March"],
    ),
    (
        "I keep my {a} in a {b}.",
        "Where does the user store their {a}?",
        ["The {a} in the shop window looked expensive.", "A podcast compared different {a}."],
        ["passport", "spare keys", "bike", "tax papers", "camera", "wine"],
        ["locked drawer", "shoebox under the bed", "garden shed", "safe in the wardrobe", "kitchen cupboard", "cellar"],
    ),
]

GRAPH = [
    # (old, new, question)
    (
        "I live in {a}, in a small flat by the canal.",
        "I moved to {b} last month.",
        "Which city is the user's flat in?",
        CITIES,
    ),
    (
        "I work at {a} as a {job}.",
        "I joined {b} last month.",
        "Which company employs the user as a {job}?",
        ["Acme Robotics", "Borealis Labs", "Cobalt Freight", "Dunmore Health", "Evergreen Bank", "Fjord Media"],
    ),
    (
        "I use {a} for all my note taking at work.",
        "I switched to {b} recently.",
        "Which app does the user take notes in at work?",
        ["Obsidian", "Evernote", "OneNote", "Notion", "Joplin", "Bear", "Logseq"],
    ),
]

MORE_CHATTER = [
    "Ticket {ticket} was closed as a duplicate.",
    "A colleague mentioned error {error} in standup.",
    "{name} reviews code for the other team.",
    "{name} flew to {city} for a wedding.",
    "Dr {doctor} retired from the clinic in town.",
    "I looked up flights to {city} but they were expensive.",
    "{name} said the {thing} dashboard was slow again.",
    "My {relative} is thinking about a new car.",
    "The {thing} team had a long retrospective.",
    "I left my umbrella at {name}'s place.",
    "We watched a film about a lighthouse keeper.",
    "I repotted the basil on the balcony.",
]


def _token(rng: random.Random, kind: str, user: str) -> str:
    digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))  # noqa: E731
    letters = lambda n: "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(n))  # noqa: E731
    hexs = lambda n: "".join(rng.choice("0123456789abcdef") for _ in range(n))  # noqa: E731
    return {
        "ticket": lambda: f"{rng.choice(['OPS', 'INC'])}-{digits(4)}",
        "booking": lambda: letters(2) + digits(1) + letters(3),
        "serial": lambda: f"SN{digits(2)}{letters(2)}{digits(4)}",
        "commit": lambda: hexs(3) + rng.choice("abcdef") + hexs(2) + rng.choice("0123456789") + hexs(5),
        "invoice": lambda: f"INV-{digits(5)}",
        "host": lambda: f"{rng.choice(['db', 'app', 'web'])}-{digits(2)}.stg.{user}.internal",
        "error": lambda: f"E{digits(4)}",
        "path": lambda: f"/etc/{user}/{rng.choice(['svc', 'worker', 'jobs'])}-{digits(3)}.toml",
        "parcel": lambda: f"JD{digits(9)}GB",
        "flag": lambda: f"FF_{letters(4)}_{digits(2)}",
    }[kind]()


def generate(*, people: int = 8, seed: int = 11, turns_per_person: int = 400) -> Dataset:
    rng = random.Random(seed)
    turns: list[Turn] = []
    questions: list[Question] = []
    start = datetime(2025, 1, 6, 9, tzinfo=UTC)
    for p in range(people):
        user = f"hard{p:02d}"
        timeline = [start + timedelta(days=9 * s + rng.randrange(3), hours=rng.randrange(8)) for s in range(SESSIONS)]
        new_turns, new_questions = _person(rng, user, timeline, turns_per_person)
        turns += new_turns
        questions += new_questions
    return Dataset(turns=turns, questions=questions)


def _person(rng: random.Random, user: str, sessions: list[datetime], size: int) -> tuple[list[Turn], list[Question]]:
    planned: list[tuple[int, str, str]] = []  # (session, key, text); key names a turn a question points at
    questions: list[tuple[str, str, str, str | None]] = []  # (text, answer key, kind, superseded key)

    def plan(text: str, key: str = "", session: int | None = None) -> str:
        planned.append((rng.randrange(SESSIONS) if session is None else session, key, text))
        return key

    # paraphrase: 8 of the 12
    for i, (answer, question, traps, competitor) in enumerate(rng.sample(PARAPHRASE, 8)):
        nut, nut2 = rng.sample(NUTS, 2)
        lang, lang2 = rng.sample(LANGS, 2)
        colour, colour2 = rng.sample(COLOURS, 2)
        pname, pname2 = rng.sample(NAMES, 2)
        values = dict(
            nut=nut,
            nut2=nut2,
            lang=lang,
            lang2=lang2,
            time=rng.choice(TIMES),
            colour=colour,
            colour2=colour2,
            car=rng.choice(CARS),
            subject=rng.choice(SUBJECTS),
            subject2=rng.choice(SUBJECTS2),
            city=rng.choice(CITIES),
            pname=pname,
            pname2=pname2,
            pjob=rng.choice(JOBS),
            craft=rng.choice(CRAFTS),
            instrument=rng.choice(INSTRUMENTS),
            dislike=rng.choice(DISLIKES),
            years=rng.randrange(3, 15),
        )
        questions.append((question, plan(answer.format(**values), f"p{i}"), "paraphrase", None))
        for trap in traps:
            plan(trap)
        plan(competitor.format(**values))

    # exact: 8 of the 10 kinds, six near-duplicate siblings each
    for i, (template, question, kind) in enumerate(rng.sample(EXACT, 8)):
        things = rng.sample(THINGS, 6)
        cities = rng.sample(CITIES, 6)
        tokens: list[str] = []
        while len(tokens) < 6:
            token = _token(rng, kind, user)
            if token not in tokens:
                tokens.append(token)
        target = rng.randrange(6)
        for j in range(6):
            plan(template.format(tok=tokens[j], thing=things[j], city=cities[j]), f"e{i}" if j == target else "")
        questions.append((question.format(tok=tokens[target]), f"e{i}", "exact", None))

    # combined: 6 of the 7 relations, five siblings and two traps each
    for i, (template, question, traps, a_values, b_values) in enumerate(rng.sample(COMBINED, 6)):
        pairs = list(zip(rng.sample(a_values, 5), rng.sample(b_values, 5), strict=True))
        target = rng.randrange(5)
        for j, (a, b) in enumerate(pairs):
            plan(template.format(a=a, b=b), f"c{i}" if j == target else "")
        a = pairs[target][0]
        for trap in traps:
            plan(trap.format(a=a))
        questions.append((question.format(a=a), f"c{i}", "combined", None))

    # graph: a changed value, the question worded after the old statement
    job = rng.choice(JOBS)
    for i, (old, new, question, values) in enumerate(GRAPH):
        a, b = rng.sample(values, 2)
        early, late = rng.randrange(0, 6), rng.randrange(12, SESSIONS)
        plan(old.format(a=a, job=job), f"g{i}-old", early)
        plan(new.format(b=b), f"g{i}", late)
        questions.append((question.format(job=job), f"g{i}", "graph", f"g{i}-old"))

    while len(planned) < size:
        if rng.random() < 0.5:
            plan(distractor(rng))
        else:
            plan(
                rng.choice(MORE_CHATTER).format(
                    ticket=_token(rng, "ticket", user),
                    error=_token(rng, "error", user),
                    name=rng.choice(NAMES),
                    city=rng.choice(CITIES),
                    doctor=rng.choice(["Okafor", "Moreau", "Novak", "Tanaka"]),
                    thing=rng.choice(THINGS),
                    relative=rng.choice(["sister", "brother", "aunt", "uncle"]),
                )
            )

    # Turns in time order; within a session, in a shuffled but fixed order.
    rng.shuffle(planned)
    planned.sort(key=lambda p: p[0])
    turns: list[Turn] = []
    ids: dict[str, str] = {}
    for n, (session, key, text) in enumerate(planned):
        turn = Turn(f"{user}-t{n:03d}", user, text, sessions[session] + timedelta(minutes=n))
        turns.append(turn)
        if key:
            ids[key] = turn.id
    return turns, [
        Question(user, text, {ids[key]}, kind, {ids[old]} if old else set()) for text, key, kind, old in questions
    ]
