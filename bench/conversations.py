"""Synthetic multi-session conversations with labelled questions, for recall benchmarks.

Each person has sessions spread over months. Their turns hold persona facts, preferences
that change over time, dated events, exact-token facts (ids, paths, error codes), and
distractor chatter. Each question names the turns that hold its answer; a question about a
changed preference also names the turn with the old value, which must rank below the new one.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

CITIES = [
    "Lisbon",
    "Osaka",
    "Toronto",
    "Nairobi",
    "Lima",
    "Oslo",
    "Hanoi",
    "Denver",
    "Cork",
    "Pune",
    "Tallinn",
    "Quito",
]
JOBS = [
    ("nurse", "hospital"),
    ("pilot", "airline"),
    ("baker", "bakery"),
    ("architect", "studio"),
    ("teacher", "school"),
    ("chemist", "lab"),
    ("lawyer", "firm"),
    ("welder", "shipyard"),
]
DRINKS = ["green tea", "espresso", "oat latte", "rooibos", "cold brew", "matcha", "chai", "sparkling water"]
EDITORS = ["Neovim", "Emacs", "VS Code", "Sublime Text", "IntelliJ", "Helix", "Zed", "Kate"]
PETS = [("dog", "Pixel"), ("cat", "Miso"), ("parrot", "Kiwi"), ("rabbit", "Clover"), ("tortoise", "Sheldon")]
HOBBIES = ["bouldering", "pottery", "sailing", "birdwatching", "chess", "salsa dancing", "beekeeping", "archery"]
EVENTS = [
    ("ran a half marathon", "race"),
    ("gave a conference talk", "talk"),
    ("moved into a new flat", "move"),
    ("passed the driving test", "test"),
    ("adopted a puppy", "adoption"),
    ("hiked to a glacier", "hike"),
]
CHATTER = [
    "The weather was grey again, nothing special to report.",
    "I watched a documentary about deep sea fish.",
    "Traffic was slow this morning on the ring road.",
    "I tried a new recipe for lentil soup, it was fine.",
    "The neighbours were painting their fence all weekend.",
    "I finally cleaned out the garage.",
    "My phone battery keeps dying in the cold.",
    "I listened to an old jazz album on the train.",
    "We argued about which pizza place is best.",
    "The gym was packed so I went for a walk instead.",
]


@dataclass
class Turn:
    id: str
    user_id: str
    text: str
    when: datetime
    previous_assistant: str = ""


@dataclass
class Question:
    user_id: str
    text: str
    answers: set[str]
    kind: str
    superseded: set[str] = field(default_factory=set)


@dataclass
class Dataset:
    turns: list[Turn]
    questions: list[Question]


NEAR_MISSES = [
    "My colleague flew to {city} for a conference on {topic}.",
    "A friend recommended {editor} to me, I have not tried it.",
    "The cafe near the station ran out of {drink} today.",
    "My sister lives in {city} and sent a postcard.",
    "Ticket {ticket} was about the office printer jamming.",
    "Someone on the team hit error {error} on a laptop once.",
    "I read an article about {hobby} in {city}.",
    "The {job} next door told me about {topic}.",
    "We discussed {topic} over {drink} with {name}.",
    "{name} showed me a photo of a {pet} named {pet_name}.",
    "I backed up {path} to the old disk by mistake.",
    "There is a {workplace} in {city} that {name} likes.",
]
TOPICS = [
    "tax forms",
    "solar panels",
    "a football match",
    "the election",
    "a new phone",
    "bread prices",
    "a museum",
    "the flu season",
    "a podcast episode",
    "train delays",
    "garden pests",
    "a wedding",
    "a board game",
]
NAMES = ["Ana", "Tom", "Priya", "Kenji", "Lena", "Omar", "Sofia", "Marek", "Ines", "Dev", "Chloe", "Ravi"]


def distractor(rng: random.Random) -> str:
    job, workplace = rng.choice(JOBS)
    pet, pet_name = rng.choice(PETS)
    return rng.choice(NEAR_MISSES + CHATTER).format(
        city=rng.choice(CITIES),
        topic=rng.choice(TOPICS),
        editor=rng.choice(EDITORS),
        drink=rng.choice(DRINKS),
        ticket=f"{rng.choice(['OPS', 'INC', 'SEC'])}-{rng.randrange(1000, 9999)}",
        error=f"E{rng.randrange(1000, 9999)}",
        hobby=rng.choice(HOBBIES),
        job=job,
        workplace=workplace,
        name=rng.choice(NAMES),
        pet=pet,
        pet_name=pet_name,
        path=f"/srv/shared/{rng.choice(['app', 'worker', 'gateway'])}-{rng.randrange(10, 99)}.yaml",
    )


def generate(*, people: int = 30, seed: int = 5, distractors: int = 150) -> Dataset:
    rng = random.Random(seed)
    turns: list[Turn] = []
    questions: list[Question] = []
    start = datetime(2025, 1, 6, 9, tzinfo=UTC)
    for p in range(people):
        user = f"person{p:02d}"
        timeline = [start + timedelta(days=9 * s + rng.randrange(3), hours=rng.randrange(8)) for s in range(8)]
        new_turns, new_questions = _person(rng, user, timeline, distractors)
        turns += new_turns
        questions += new_questions
    return Dataset(turns=turns, questions=questions)


def _person(
    rng: random.Random, user: str, sessions: list[datetime], distractors: int
) -> tuple[list[Turn], list[Question]]:
    turns: list[Turn] = []
    questions: list[Question] = []

    def say(session: int, text: str, previous: str = "") -> str:
        turn = Turn(
            f"{user}-t{len(turns):03d}", user, text, sessions[session] + timedelta(minutes=len(turns)), previous
        )
        turns.append(turn)
        return turn.id

    job, workplace = rng.choice(JOBS)
    city_a, city_b = rng.sample(CITIES, 2)
    drink_a, drink_b = rng.sample(DRINKS, 2)
    editor_a, editor_b = rng.sample(EDITORS, 2)
    pet, pet_name = rng.choice(PETS)
    hobby = rng.choice(HOBBIES)
    event, event_word = rng.choice(EVENTS)
    ticket = f"{rng.choice(['OPS', 'INC', 'SEC'])}-{rng.randrange(1000, 9999)}"
    error = f"E{rng.randrange(1000, 9999)}"
    path = f"/srv/{user}/config/{rng.choice(['app', 'worker', 'gateway'])}-{rng.randrange(10, 99)}.yaml"
    token = str(uuid.UUID(int=rng.getrandbits(128)))

    for _ in range(distractors // 2):
        say(rng.randrange(8), distractor(rng))
    job_turn = say(0, f"I work as a {job} at a {workplace} downtown.")
    city_old = say(0, f"I live in {city_a} with my partner.")
    drink_old = say(1, f"I prefer {drink_a} in the morning.")
    editor_old = say(1, f"I use {editor_a} for all my writing.")
    pet_turn = say(2, f"We have a {pet} named {pet_name}.", previous="Do you have any pets?")
    hobby_turn = say(2, f"On weekends I go {hobby} with friends.")
    ticket_turn = say(3, f"The outage last week was tracked in ticket {ticket}.")
    error_turn = say(3, f"The deploy keeps failing with error {error} when the disk is full.")
    path_turn = say(4, f"The settings for my service live in {path}.")
    token_turn = say(4, f"My API client id is {token}.")
    event_turn = say(5, f"Last Saturday I {event}.")
    city_new = say(6, f"I moved to {city_b} last month.")
    drink_new = say(6, f"I now prefer {drink_b} instead.")
    editor_new = say(7, f"I switched to {editor_b} recently.")
    for _ in range(distractors - distractors // 2):
        say(rng.randrange(8), distractor(rng))

    questions += [
        Question(user, "What does the user do for a living?", {job_turn}, "persona"),
        Question(user, f"Which {pet} does the user have?", {pet_turn}, "persona"),
        Question(user, "What does the user like to do on weekends?", {hobby_turn}, "persona"),
        Question(user, f"Which ticket tracked the outage? {ticket}", {ticket_turn}, "exact"),
        Question(user, f"What does error {error} mean?", {error_turn}, "exact"),
        Question(user, f"What is in {path}?", {path_turn}, "exact"),
        Question(user, f"Whose client id is {token}?", {token_turn}, "exact"),
        Question(user, f"When did the user's {event_word} happen?", {event_turn}, "event"),
        Question(user, "Where does the user live now?", {city_new}, "changed", {city_old}),
        Question(user, "What does the user prefer to drink in the morning?", {drink_new}, "changed", {drink_old}),
        Question(user, "Which editor does the user use?", {editor_new}, "changed", {editor_old}),
    ]
    return turns, questions
