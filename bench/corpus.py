"""Synthetic memories for benchmarks: varied, distinct statements about many people."""

from __future__ import annotations

import random

PLACES = ["Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi", "Lima", "Oslo", "Hanoi", "Porto", "Denver", "Cork", "Pune"]
ITEMS = ["green tea", "espresso", "jazz", "chess", "climbing", "sourdough", "sci-fi novels", "cycling", "sushi", "yoga"]
TOOLS = ["Neovim", "VS Code", "Postgres", "Redis", "Kafka", "Terraform", "Rust", "Go", "Django", "React", "Figma"]
PEOPLE = ["Ana", "Tom", "Priya", "Kenji", "Lena", "Omar", "Sofia", "Marek", "Ines", "Dev", "Chloe", "Ravi"]
TEMPLATES = [
    "{u} lives in {place} near the {n}th street market.",
    "{u} likes {item} and does it every {day}.",
    "{u} uses {tool} for project {code}.",
    "{u} met {person} at the {place} office on day {n}.",
    "{u} wants to visit {place} before year {year}.",
    "The {tool} cluster for {u} runs on host node-{n}.",
    "{u} decided to move project {code} to {tool}.",
    "{u}'s ticket {code} was closed after {n} days.",
    "{u} is learning {tool} with {person} on {day}s.",
    "{u} keeps the {item} notes in /home/{u}/notes/{code}.md.",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def statements(count: int, *, seed: int = 7, owners: int = 20) -> list[tuple[str, str]]:
    """(user_id, content) pairs, all distinct."""
    rng = random.Random(seed)
    seen: set[str] = set()
    rows: list[tuple[str, str]] = []
    while len(rows) < count:
        user = f"user{rng.randrange(owners):02d}"
        text = rng.choice(TEMPLATES).format(
            u=user,
            place=rng.choice(PLACES),
            item=rng.choice(ITEMS),
            tool=rng.choice(TOOLS),
            person=rng.choice(PEOPLE),
            n=rng.randrange(1, 9999),
            year=rng.randrange(2027, 2040),
            day=rng.choice(DAYS),
            code=f"{rng.choice('ABCDEFGH')}{rng.choice('XYZW')}-{rng.randrange(100, 99999)}",
        )
        if text not in seen:
            seen.add(text)
            rows.append((user, text))
    return rows


def first_person(count: int, *, seed: int = 11, sentences: int = 1) -> list[str]:
    """Messages as a user would write them, each new: for timing add_memory's full path."""
    rng = random.Random(seed)
    parts = [
        "I moved to {place} in {year}.",
        "I really enjoy {item} on {day}s.",
        "My manager {person} uses {tool} daily.",
        "I started learning {tool} for ticket {code}.",
        "I want to visit {place} with {person} in {year}.",
        "The {tool} deploy for {code} failed on host node-{n}.",
        "I booked a table for {n} people in {place}.",
    ]
    messages = []
    for _ in range(count):
        messages.append(" ".join(part.format(**_values(rng)) for part in rng.sample(parts, sentences)))
    return messages


def _values(rng: random.Random) -> dict:
    """One sentence's values, drawn in a fixed order so a seed always gives the same messages."""
    values = {
        "place": rng.choice(PLACES),
        "year": rng.randrange(2000, 2030),
        "item": rng.choice(ITEMS),
        "day": rng.choice(DAYS),
        "person": rng.choice(PEOPLE),
        "tool": rng.choice(TOOLS),
        "n": rng.randrange(1, 99999),
    }
    values["code"] = f"{rng.choice('ABCDEFGH')}{rng.choice('XYZW')}-{rng.randrange(100, 99999)}"
    return values
