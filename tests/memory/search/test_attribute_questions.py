"""A question asking for someone's attribute ("Where does Zoe live now?") is answered about that
person, with their current value: not a relative's value of the same attribute, not an old one.
The questions about one owner's memories, Zoe's, are in test_attribute_questions_of_zoe.py."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memory.answering import memory_answer
from memory.search.attributes import AttributeAsked, attribute_asked
from memory.search.conductor import memory_search

pytestmark = pytest.mark.django_db


def results(actor, query: str, user_id: str = "zoe") -> list[dict]:
    return memory_search(actor=actor, query=query, user_id=user_id)["results"]


def test_a_relative_who_moved_since_is_still_the_relative(team, add):
    for message in ("I live in Braga.", "My sister Ana lives in Porto.", "Ana moved to Faro in May."):
        add(message, user_id="rui")

    found = results(team["writer"], "Where does my sister live?", user_id="rui")

    assert "Faro" in found[0]["content"] and found[0]["signals"]["attribute_match"] is True


def test_the_name_the_owner_goes_by_is_the_owner(team, add):
    for message in ("My name is Zoe.", "I live in Braga.", "My sister lives in Faro."):
        add(message, user_id="u-417")

    assert "Braga" in results(team["writer"], "Where does Zoe live?", user_id="u-417")[0]["content"]
    assert "Faro" in results(team["writer"], "Where does Zoe's sister live?", user_id="u-417")[0]["content"]


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Where does Zoe live now?", ("zoe", "residence")),
        ("where do I live", ("zoe", "residence")),
        ("Where is Zoe based these days?", ("zoe", "residence")),
        ("What city is Zoe in?", ("zoe", "residence")),
        ("Which town does Zoe live in?", ("zoe", "residence")),
        ("What does Zoe do for a living?", ("zoe", "job")),
        ("What is Zoe's job?", ("zoe", "job")),
        ("What's my occupation?", ("zoe", "job")),
        ("Where does Zoe work?", ("zoe", "employer")),
        ("Who does the user work for?", ("zoe", "employer")),
        ("Who is Zoe's partner?", ("zoe", "partner")),
        ("Who is Zoe married to?", ("zoe", "partner")),
        ("Who's my wife?", ("zoe", "partner")),
        ("Where does Zoe's sister live?", ("zoe's sister", "residence")),
        ("Where do my parents live?", ("zoe's parents", "residence")),
        ("Where are my parents based?", ("zoe's parents", "residence")),
        ("Where does Ana live?", ("ana", "residence")),
        ("What does Ana's husband do?", ("ana's husband", "job")),
        ("What is Zoe's favourite colour?", ("zoe", "favourite colour")),
    ],
)
def test_a_question_is_read_as_the_statement_it_asks_to_complete(question, asked):
    assert attribute_asked(question, "zoe") == AttributeAsked(*asked)


@pytest.mark.parametrize(
    "question",
    [
        "Where does he live?",  # no one the owner's memories can name
        "Where does his sister live?",
        "Where is Zoe from?",  # where she comes from is not where she lives
        "What does Zoe like?",  # many values, not one
        "Which editor does Zoe use?",
        "What is the name of the dog?",
        "How was the trip to Porto?",
        "What are Zoe's hobbies?",  # several values
        "Who are my cousins?",
        "What is one of Zoe's favourite films?",
        "Who is Zoe and Ana's favourite singer?",  # two people's
        "What is Zoe's favourite book about?",  # about the value, not the value
        "What is Zoe's violin a reminder of?",
        "What does Zoe tell Ana she won't do?",  # not what Ana does for a living
    ],
)
def test_other_questions_ask_for_no_attribute(question):
    assert attribute_asked(question, "zoe") is None


# --- many owners, many people ---------------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    owner: str
    said: tuple[str, ...]
    # (question, words only the memory answering it holds)
    asked: tuple[tuple[str, str], ...]


PROFILES = [
    Profile(
        "omar",
        (
            "I live in Cairo.",
            "My brother Karim lives in Alexandria.",
            "I'm a big fan of old jazz records.",
            "Last spring I moved to Amman.",
        ),
        (("Where does Omar live?", "Amman"), ("Where does Omar's brother live?", "Alexandria")),
    ),
    Profile(
        "lena",
        (
            "I work as a teacher.",
            "My husband Jonas works as a pilot.",
            "This year I started working as a school principal.",
            "We have two cats.",
        ),
        (("What's Lena's job?", "principal"), ("What does Lena's husband do?", "pilot")),
    ),
    Profile(
        "kai",
        (
            "I moved to Osaka for work.",
            "I work for Nintendo.",
            "My girlfriend Aiko works for Sony.",
            "I love ramen.",
        ),
        (("Who do I work for?", "Nintendo"), ("Where do I live?", "Osaka")),
    ),
    Profile(
        "u-2231",
        ("My name is Priya.", "I live in Pune.", "My mother lives in Chennai.", "I teach yoga on Sundays."),
        (("Where does Priya live?", "Pune"), ("Where does Priya's mother live?", "Chennai")),
    ),
    Profile(
        "marta",
        ("I'm based in Madrid.", "My partner is Luis.", "Luis lives in Seville.", "I run every morning."),
        (("Who is Marta's partner?", "partner is Luis"), ("Where is Marta based?", "Madrid")),
    ),
    Profile(
        "tom",
        ("I work at Google.", "I left Google and joined Stripe in May.", "My sister works at Google too."),
        (("Where does Tom work?", "Stripe"), ("Where does Tom's sister work?", "sister works at Google")),
    ),
    Profile(
        "ines",
        ("My sister Clara is married to Pedro.", "I'm married to Rui.", "I play padel on Fridays."),
        (("Who is Ines married to?", "Rui"), ("Who is Ines's sister married to?", "Pedro")),
    ),
    Profile(
        "theo",
        ("I used to work as a barista.", "These days I work as a graphic designer.", "My brother works as a chef."),
        (("What's my job?", "graphic designer"), ("What does my brother do?", "chef")),
    ),
    Profile(
        "sam",
        (
            "I live in Leeds with my wife.",
            "My wife is Hannah.",
            "Hannah works as a midwife.",
            "I support Leeds United.",
        ),
        (("What does Sam's wife do?", "midwife"), ("Who is Sam's wife?", "wife is Hannah")),
    ),
    Profile(
        "noor",
        ("I moved to Dubai in 2021.", "In 2024 I relocated to Doha.", "My cousin Layla lives in Dubai."),
        (("Where does Noor live now?", "Doha"), ("Where does Layla live?", "Layla lives in Dubai")),
    ),
    Profile(
        "ben",
        ("I work at Shopify.", "My dad works at Shopify too.", "I'm learning Rust."),
        (("Where does Ben work?", "ben works at Shopify"), ("Where does Ben's dad work?", "dad works")),
    ),
    Profile(
        "aisha",
        ("Aisha lives in Nairobi.", "She works as a doctor.", "Her brother Musa lives in Mombasa."),
        (("Where does Aisha live?", "Nairobi"), ("What is Aisha's job?", "doctor")),
    ),
    Profile(
        "rosa",
        ("My boyfriend is Marco.", "Marco and I broke up in June.", "My girlfriend is Elena now."),
        (("Who is my partner?", "Elena"),),
    ),
    Profile(
        "yuki",
        ("I live in Kyoto.", "My parents live in Sapporo.", "My brother lives in Kyoto too."),
        (("Where do Yuki's parents live?", "Sapporo"), ("Where does Yuki live?", "yuki lives in Kyoto")),
    ),
    Profile(
        "carlos",
        ("I work for Iberdrola.", "My wife Sofia works for Repsol.", "I now work for Telefonica."),
        (("Who does Carlos work for?", "Telefonica"), ("Who does Carlos's wife work for?", "Repsol")),
    ),
    Profile(
        "greta",
        ("I'm 34 years old.", "I live in Oslo.", "My friend Ingrid lives in Bergen.", "I hate the cold."),
        (("Which city does Greta live in?", "Oslo"), ("Where does Ingrid live?", "Bergen")),
    ),
    Profile(
        "diego",
        ("Diego moved to Lima last year.", "Diego's brother Mateo moved to Lima too.", "Diego works as an architect."),
        (("Where does Diego live?", "Diego moved to Lima"), ("What does Diego do for a living?", "architect")),
    ),
    Profile(
        "hana",
        ("I work as a translator at the embassy.", "My husband works as a translator too.", "I like hiking."),
        (("What's Hana's job?", "embassy"), ("What does Hana's husband do?", "husband works as a translator")),
    ),
    Profile(
        "owen",
        ("I'm living in Cardiff these days.", "My sister Bethan is living in Swansea.", "I play rugby."),
        (("Where is Owen living?", "Cardiff"), ("Where is Owen's sister living?", "Swansea")),
    ),
    Profile(
        "u-88",
        ("My name is Fatima.", "I work at Aramco.", "My brother Ali works at Aramco as well."),
        (("Where does Fatima work?", "u-88 works at Aramco"), ("Who does Fatima's brother work for?", "Ali")),
    ),
    Profile(
        "liam",
        ("I moved from Dublin to Galway.", "My girlfriend Niamh lives in Cork.", "I surf on weekends."),
        (("Where does Liam live?", "Galway"), ("Where does Liam's girlfriend live?", "Cork")),
    ),
    Profile(
        "maya",
        ("I'm married to Daniel.", "My best friend Noa is married to Avi.", "I work as a nurse in Haifa."),
        (("Who is Maya married to?", "Daniel"), ("Who is Noa married to?", "Avi")),
    ),
    Profile(
        "jonas",
        ("I live in Hamburg.", "I moved to Munich in August.", "My ex lives in Hamburg still."),
        (("Where does Jonas live now?", "Munich"), ("Where do I live?", "Munich")),
    ),
    Profile(
        "chloe",
        ("I work at a bakery.", "My mum works at the hospital.", "I joined Airbus as an engineer."),
        (("Where does Chloe work?", "Airbus"), ("Where does Chloe's mum work?", "hospital")),
    ),
    Profile(
        "arjun",
        ("My wife is Meera.", "Meera works as a dentist.", "I work as a civil engineer.", "I cook on weekends."),
        (("What does Arjun do?", "civil engineer"), ("What does Arjun's wife do?", "dentist")),
    ),
    Profile(
        "sofia",
        ("My husband Nikos lives in Athens.", "I live in Thessaloniki.", "My son lives in Athens too."),
        (("Where does Sofia live?", "Thessaloniki"), ("Where does Sofia's husband live?", "Nikos")),
    ),
    Profile(
        "eva",
        ("I work as a journalist.", "My boyfriend Tomas works as a journalist as well.", "I write poems."),
        (("What is Eva's job?", "eva works as a journalist"), ("What does Tomas do?", "Tomas")),
    ),
    Profile(
        "malik",
        ("I'm based in Lagos.", "I relocated to Accra in January.", "My uncle is based in Lagos."),
        (("Where is Malik based?", "Accra"), ("Where is Malik's uncle based?", "uncle")),
    ),
    Profile(
        "julia",
        ("My partner is Sven.", "Sven works at IKEA.", "I work at Spotify.", "Julia likes long walks."),
        (("Where does Julia work?", "Spotify"), ("Where does Julia's partner work?", "IKEA")),
    ),
    Profile(
        "pablo",
        ("I live in Valencia.", "My girlfriend lives in Barcelona.", "I bought a house in Alicante."),
        (("Where does Pablo live?", "Alicante"), ("Where does Pablo's girlfriend live?", "Barcelona")),
    ),
    Profile(
        "anna",
        ("I work as a cashier.", "I'm employed as a data analyst now.", "My sister Kasia works as a cashier."),
        (("What does Anna do for work?", "data analyst"), ("What does Kasia do?", "Kasia")),
    ),
    Profile(
        "wei",
        ("I work for Huawei.", "My husband works for Tencent.", "I've been running marathons for years."),
        (("Who does Wei work for?", "Huawei"), ("Who does Wei's husband work for?", "Tencent")),
    ),
    Profile(
        "ola",
        ("I live in Lagos with my parents.", "My aunt lives in Abuja.", "I moved to London to study."),
        (("Where does Ola live now?", "London"), ("Where does Ola's aunt live?", "Abuja")),
    ),
    Profile(
        "nina",
        ("My husband is Paul.", "Paul is 41 years old.", "My sister is married to Erik.", "I swim a lot."),
        (("Who is Nina's husband?", "Paul"), ("Who is Nina's sister married to?", "Erik")),
    ),
    Profile(
        "raj",
        ("I work at Infosys.", "I switched jobs and now work at Wipro.", "My father works at Infosys."),
        (("Where does Raj work?", "Wipro"), ("Where does Raj's father work?", "father works at Infosys")),
    ),
    Profile(
        "elsa",
        ("I live in Uppsala.", "My brother Nils lives in Uppsala as well.", "I study biology."),
        (("Where does Elsa live?", "elsa lives in Uppsala"), ("Where does Nils live?", "Nils")),
    ),
    Profile(
        "tariq",
        ("I work as a taxi driver.", "My wife works as a teacher.", "I drive for Uber on weekends.", "I like chess."),
        (("What does Tariq do?", "taxi driver"), ("What does Tariq's wife do?", "teacher")),
    ),
    Profile(
        "grace",
        ("I moved to Toronto in 2019.", "My daughter lives in Vancouver.", "I moved back to Montreal last year."),
        (("Where does Grace live?", "Montreal"), ("Where does Grace's daughter live?", "Vancouver")),
    ),
    Profile(
        "igor",
        ("I work for Yandex.", "My wife Olga works for Sberbank.", "I'm into chess."),
        (("Who does Igor work for?", "Yandex"), ("Who does Olga work for?", "Sberbank")),
    ),
    Profile(
        "lucia",
        ("My boyfriend is Andrea.", "Andrea lives in Turin.", "I live in Milan.", "I love opera."),
        (("Who is Lucia's boyfriend?", "Andrea"), ("Where does Lucia live?", "Milan")),
    ),
    Profile(
        "kofi",
        ("I live in Kumasi.", "My cousin Ama lives in Kumasi too.", "I moved to Tamale in the summer."),
        (("Where does Kofi live?", "Tamale"), ("Where does Ama live?", "Ama")),
    ),
    Profile(
        "hugo",
        ("I'm a chemist by training.", "I work at BASF.", "My brother Felix works at Bayer."),
        (("Where does Hugo work?", "BASF"), ("Where does Hugo's brother work?", "Bayer")),
    ),
    Profile(
        "mei",
        ("My husband is Chen.", "Chen works as a surgeon.", "I work as a pharmacist.", "We live in Taipei."),
        (("What is Mei's occupation?", "pharmacist"), ("What does Mei's husband do?", "surgeon")),
    ),
    Profile(
        "dan",
        ("I live in Austin.", "My brother lives in Dallas.", "I relocated to Denver for a new job."),
        (("Where do I live now?", "Denver"), ("Where does my brother live?", "Dallas")),
    ),
    Profile(
        "amara",
        ("I'm married to Obi.", "My sister Ada is married to Chidi.", "I work at a law firm."),
        (("Who is my husband?", "Obi"), ("Who is my sister married to?", "Chidi")),
    ),
    Profile(
        "leo",
        ("I work as a barber.", "My girlfriend works as a barber too.", "I play bass in a band."),
        (("What's my job?", "leo works as a barber"), ("What does my girlfriend do?", "girlfriend works")),
    ),
    Profile(
        "sara",
        ("I live in Bologna.", "My boyfriend Gianni lives in Rome.", "I moved to Florence in September."),
        (("Where does Sara live now?", "Florence"), ("Where does Sara's boyfriend live?", "Rome")),
    ),
    Profile(
        "ahmed",
        ("I work at Emirates.", "My son works at Emirates too.", "I left Emirates and joined Etihad."),
        (("Where does Ahmed work now?", "Etihad"), ("Where does Ahmed's son work?", "son works at Emirates")),
    ),
    Profile(
        "clara",
        ("My wife is Julie.", "Julie lives in Lyon.", "I live in Paris.", "I'm vegetarian."),
        (("Who is Clara's wife?", "Julie"), ("Where does Clara's wife live?", "Lyon")),
    ),
    Profile(
        "mateus",
        ("I work as a plumber.", "My sister works as an electrician.", "I enjoy fishing."),
        (("What does Mateus do?", "plumber"), ("What does Mateus's sister do?", "electrician")),
    ),
    Profile(
        "zara",
        ("I live in Karachi.", "My mother lives in Lahore.", "My husband lives in Karachi with me."),
        (("Where does Zara live?", "zara lives in Karachi"), ("Where does Zara's mother live?", "Lahore")),
    ),
    Profile(
        "erik",
        ("I work for Volvo.", "My partner works for Ericsson.", "I drive a Saab."),
        (("Who does Erik work for?", "Volvo"), ("Who does Erik's partner work for?", "Ericsson")),
    ),
    Profile(
        "bea",
        ("I'm engaged to Hugo.", "My brother is married to Lina.", "I knit scarves."),
        (("Who is Bea engaged to?", "Hugo"), ("Who is Bea's brother married to?", "Lina")),
    ),
    Profile(
        "ravi",
        ("I live in Delhi.", "My grandparents live in Jaipur.", "I moved to Bangalore for my studies."),
        (("Where does Ravi live?", "Bangalore"), ("Where do Ravi's grandparents live?", "Jaipur")),
    ),
    Profile(
        "u-509",
        ("My name is Ingrid.", "I work as a veterinarian.", "My brother Lars works as a farmer."),
        (("What does Ingrid do?", "veterinarian"), ("What does Lars do?", "farmer")),
    ),
    Profile(
        "tess",
        ("I work at Deloitte.", "My boyfriend works at KPMG.", "I now work at PwC.", "I like sushi."),
        (("Where does Tess work?", "PwC"), ("Where does Tess's boyfriend work?", "KPMG")),
    ),
    Profile(
        "felipe",
        ("My wife Camila lives in Bogota.", "I live in Medellin.", "I moved to Cali in April."),
        (("Where does Felipe live?", "Cali"), ("Where does Felipe's wife live?", "Camila")),
    ),
    Profile(
        "jane",
        ("I work as a librarian.", "My husband Mark works as a librarian too.", "I read a lot."),
        (("What is Jane's job?", "jane works as a librarian"), ("What does Mark do?", "Mark")),
    ),
    Profile(
        "oscar",
        ("I live in Malmo.", "My daughter Freja lives in Lund.", "My son lives in Malmo too."),
        (("Where does Oscar live?", "oscar lives in Malmo"), ("Where does Freja live?", "Lund")),
    ),
    Profile(
        "ivy",
        ("I work for the BBC.", "My mum works for the NHS.", "I paint on Sundays."),
        (("Who does Ivy work for?", "BBC"), ("Who does Ivy's mum work for?", "NHS")),
    ),
]


def test_owners_and_the_people_around_them_are_answered_with_their_current_values(team, add):
    for profile in PROFILES:
        for message in profile.said:
            add(message, user_id=profile.owner)
    searched, answered = [], []
    asked = [(profile.owner, question, words) for profile in PROFILES for question, words in profile.asked]
    for owner, question, words in asked:
        top = results(team["writer"], question, user_id=owner)[0]["content"]
        if words.lower() not in top.lower():
            searched.append(f"{owner}: {question!r} → {top!r}")
        answer = memory_answer(actor=team["writer"], question=question, user_id=owner)
        cited = answer["citations"][0]["content"] if answer["citations"] else ""
        if not (answer["found"] and words.lower() in cited.lower() and answer["answer"] in cited):
            answered.append(f"{owner}: {question!r} → {answer['answer']!r}")

    assert len(PROFILES) >= 60 and len(asked) >= 100
    assert 1 - len(searched) / len(asked) >= 0.95, "search_memory's first result:\n" + "\n".join(searched)
    assert 1 - len(answered) / len(asked) >= 0.95, "answer_question:\n" + "\n".join(answered)
