"""Hand-written facts for the conversation evaluation (English), in the template form convo.py reads.

Each fact: a key, a topic, its lines (`A:` is the person the fact is about, `B:` the friend they talk to;
`---` separates stages told in different sessions), the answer text marked `[[...]]` (the marked part is
what an answer-bearing result must show), the questions (paraphrased, not quoted; `@i,j` names the marked
answers that answer it, default the first) and the slots filled per conversation. `{whenN}` in a question
is the date of stage N's session ("in June", "on 3 June 2023", ...).

TUNE facts are used only by the tuning conversations, HELD facts only by the held-out ones.
"""

from __future__ import annotations

from typing import Any

PETS = ("Shelly", "Tank", "Pickle", "Biscuit", "Noodle", "Pebble", "Mango", "Ziggy", "Waffles", "Olive")
CITIES = ("Portland", "Denver", "Lisbon", "Austin", "Dublin", "Seville", "Kyoto", "Oslo", "Boston", "Leeds")
COMPANIES = ("Brightwave", "Northpeak", "Cobalt Labs", "Fernhill", "Quillstone", "Harbor Analytics", "Tidewell")
SONGS = ("Wonderwall", "Hallelujah", "Blackbird", "Yellow", "Riptide", "Stand By Me", "Let It Be", "Jolene")
BANDS = ("The Lumineers", "Fleet Foxes", "Arctic Monkeys", "Haim", "Vampire Weekend", "Bon Iver", "Khruangbin")
BOOKS = ("Circe", "The Overstory", "Piranesi", "Klara and the Sun", "Educated", "Pachinko", "Station Eleven")
HOODS = ("Riverside", "Old Town", "Maple Heights", "the Docklands", "Greenpoint", "Willow Park", "Eastgate")
PARKS = ("Glacier", "Yosemite", "the Smokies", "Zion", "Banff", "Olympic", "Acadia")
NUMBER_WORDS = ("twelve", "fifteen", "eighteen", "twenty", "thirty", "fourteen", "sixteen")
SMALL_WORDS = ("four", "six", "seven", "eight", "nine", "eleven")
KIDS = ("Emma", "Lily", "Sofia", "Ava", "Mia", "Zoe", "Ruby")
BOYS = ("Leo", "Max", "Theo", "Sam", "Oscar", "Finn", "Eli")
LANGUAGES = ("Portuguese", "Korean", "Italian", "Greek", "Polish", "Turkish", "Swahili")
SUBJECTS = ("accounting", "astronomy", "statistics", "marine biology", "web design", "psychology")
COUNTRIES = ("Japan", "Peru", "Iceland", "Vietnam", "Morocco", "New Zealand", "Norway")
CARS = ("Nissan Leaf", "Chevy Bolt", "Hyundai Kona", "Mini Electric", "Kia Niro")
LAKES = ("Lake Geneva", "Loch Ness", "Lake Tahoe", "Lake Bled", "Lake Como")
RIVERS = ("the Green River", "the Ardeche", "the Buffalo River", "the Wye", "the Delaware")
PIECES = ("Fur Elise", "the Moonlight Sonata", "a Chopin nocturne", "the Entertainer", "Clair de Lune")

# Lines on a topic said in other sessions, so that a fact's words also turn up where it is not.
TOPIC_LINES: dict[str, tuple[str, ...]] = {
    "pets": (
        "We walked past the pet shop and I almost came home with a hamster.",
        "My sister's dog chewed through her new shoes again.",
        "Do you think a turtle would be a good pet for a kid?",
        "The vet bills for my neighbour's cat are unbelievable.",
        "I love animals, pets just make everything better.",
    ),
    "running": (
        "I keep saying I'll start running again and then I don't.",
        "My cousin ran a marathon once and never stopped talking about it.",
        "There's a charity race downtown next month, the whole street gets closed.",
        "Running in this heat sounds like torture to me.",
    ),
    "hobby": (
        "I need a new hobby, something with my hands.",
        "My mom keeps sending me videos of people making pottery.",
        "I tried painting once and it looked like a puddle.",
        "Everyone at work has some hobby except me.",
    ),
    "music": (
        "I've had that song stuck in my head all week.",
        "My neighbour practises guitar at the worst possible times.",
        "Live concerts are so expensive now, it's ridiculous.",
        "I made a playlist for the drive, all old songs.",
    ),
    "garden": (
        "Our balcony plants died while we were away, again.",
        "My dad grows tomatoes and brags about them every summer.",
        "The community garden has a waiting list of two years.",
    ),
    "cooking": (
        "I burned the rice again last night, I'm hopeless in the kitchen.",
        "My grandma never writes anything down when she cooks.",
        "We ordered takeout three nights in a row, not proud of it.",
        "I want to learn to bake bread but it seems so slow.",
    ),
    "work": (
        "Work has been a lot this week, so many meetings.",
        "My manager wants us all back in the office on Mondays.",
        "A colleague of mine quit without notice, total chaos.",
        "I keep thinking about asking for a raise.",
    ),
    "family": (
        "My parents are visiting next weekend, I need to clean everything.",
        "My niece just started school, she's so proud of her backpack.",
        "Family dinners at my aunt's are always loud.",
        "My brother called me at midnight to ask about his taxes.",
    ),
    "home": (
        "Our landlord still hasn't fixed the heating.",
        "Moving is the worst, I swear I'm never moving again.",
        "We bought a new couch and it doesn't fit through the door.",
    ),
    "car": (
        "Gas prices are insane right now.",
        "My car makes a weird noise when I turn left.",
        "I hate driving in the city, parking is impossible.",
    ),
    "volunteer": (
        "I keep meaning to volunteer somewhere but never find the time.",
        "Our church runs a food drive every December.",
        "My friend volunteers at an animal shelter on weekends.",
    ),
    "events": (
        "Festival tickets sold out in ten minutes this year.",
        "There's a jazz festival in the park next weekend.",
        "I went to a concert alone once and it was honestly great.",
        "Weddings this summer: four. My wallet is crying.",
    ),
    "reading": (
        "I bought five books and haven't opened a single one.",
        "My book club mostly drinks wine and talks about other things.",
        "I can only read on the train these days.",
    ),
    "outdoors": (
        "We wanted to go camping but the forecast was awful.",
        "Hiking boots are so expensive, I'm still wearing my old ones.",
        "I saw a deer in the park this morning, right next to the path.",
        "A bear was spotted near the campsite my cousin stayed at.",
    ),
    "health": (
        "My back has been killing me from sitting all day.",
        "I finally booked a check-up, first one in years.",
        "Everyone at the office has a cold right now.",
        "My doctor told me to drink more water, groundbreaking advice.",
    ),
    "education": (
        "I miss being a student sometimes, just learning things.",
        "My cousin is doing a master's degree at night while working full time.",
        "Online courses never work for me, I stop after two weeks.",
    ),
    "money": (
        "I looked at my bank statement and immediately closed the app.",
        "We're trying to stick to a budget this year.",
        "Rent went up again, of course.",
    ),
    "sport": (
        "I signed up for the gym in January and went twice.",
        "My friend plays in a football league every Sunday.",
        "Swimming is the only exercise I actually enjoy.",
    ),
    "travel": (
        "I need a holiday so badly.",
        "Flights are so expensive this year, we might just stay home.",
        "My parents went on a cruise and loved it, I'd go crazy.",
    ),
}


def fact(key: str, topic: str, text: str, questions: list[str], **slots: Any) -> dict[str, Any]:
    """One fact, as convo.py reads it."""
    return {"key": key, "topic": topic, "text": text, "questions": questions, "slots": slots}


TUNE = [
    fact(
        "turtles",
        "pets",
        """
        B: Do you have any pets at home?
        A: Yep, two turtles, [[{p1} and {p2}]]. They sunbathe on a rock under the heat lamp all day.
        B: So cute! I love your turtles so much!
        """,
        ["What are the names of {A}'s pets?", "How many turtles does {A} have?"],
        p1=PETS[:5],
        p2=PETS[5:],
    ),
    fact(
        "rescue-dog",
        "pets",
        """
        A: Big news: we adopted a rescue dog over the weekend!
        B: No way! What kind?
        A: [[A three-legged greyhound named {dog}]]. The shelter said she'd been waiting for months.
        B: Aww, dogs are the best. Congrats!
        """,
        ["What breed is the dog {A} adopted?", "Which of {A}'s pets has 3 legs?"],
        dog=PETS,
    ),
    fact(
        "cat-surgery",
        "pets",
        """
        A: Rough morning, I had to rush {cat} to the vet.
        B: Oh no! What happened?
        A: [[She'd swallowed a hair tie]] and needed surgery. She's home now, wearing a little cone.
        B: Poor kitty. Cats eat the weirdest things.
        """,
        ["Why did {A}'s cat need an operation?"],
        cat=PETS,
    ),
    fact(
        "half-marathon",
        "running",
        """
        A: I finally did it, [[I signed up for the {city} half marathon]].
        B: Whoa! How much running are you doing right now?
        A: [[About five miles, three times a week]], so I've got work to do.
        ---
        A: [[Finished the half marathon in {time}]]!
        B: Amazing!! How do your legs feel?
        A: Wrecked. I could barely walk down the stairs for two days.
        """,
        [
            "What did {A} say about the half marathon {when0}?",
            "What did {A} tell {B} about the race {when1}?",
            "How many miles was {A} running 3 times a week? @1",
            "How long did it take {A} to complete the race they registered for {when0}? @0,2",
        ],
        city=CITIES,
        time=("2 hours and 4 minutes", "1:58", "2:11", "1:49", "2 hours 20"),
    ),
    fact(
        "pottery",
        "hobby",
        """
        A: I joined a pottery class on Thursday nights.
        B: Fun! Have you made anything yet?
        A: [[A lopsided bowl and a mug whose handle fell off in the kiln]]. The teacher says all first mugs do that.
        B: Haha, pottery sounds so relaxing.
        """,
        ["What has {A} made in the ceramics course so far?"],
    ),
    fact(
        "guitar",
        "music",
        """
        A: I've been teaching myself guitar from videos.
        B: Cool! What can you play?
        A: [[Just the chorus of {song}]], and my fingertips are killing me.
        """,
        ["Which song is {A} learning to play on the guitar?"],
        song=SONGS,
    ),
    fact(
        "tomatoes",
        "garden",
        """
        B: How's the garden doing?
        A: The tomatoes went crazy, [[I picked {n} pounds last week]] and gave most of them to the neighbours.
        B: {n|cap} pounds of tomatoes? Wow!
        """,
        ["How many pounds of tomatoes did {A} harvest?"],
        n=NUMBER_WORDS,
    ),
    fact(
        "sourdough",
        "cooking",
        """
        A: My sourdough starter is alive! [[I named it {starter}]].
        B: You named your starter?? Haha.
        A: Everyone does! It doubles in about six hours now, so the first loaf is happening Saturday.
        """,
        ["What is {A}'s sourdough starter called?"],
        starter=("Clint Yeastwood", "Bread Pitt", "Doughtzilla", "Sir Loaf", "Yeastie Boy"),
    ),
    fact(
        "grandma-soup",
        "cooking",
        """
        A: I finally got my grandma to write down her soup recipe.
        B: The famous one? What's the secret?
        A: [[Roasted garlic and a parmesan rind simmered in the broth]] for three hours.
        B: Mmm, I need that soup in my life.
        """,
        ["What is the secret ingredient of {A}'s grandmother's soup?"],
    ),
    fact(
        "promotion",
        "work",
        """
        A: Guess what, [[I got promoted to team lead at {company}]]!
        B: Congrats!! When does it start?
        A: Next month. [[I'll be managing {n} people]], which is scary and exciting.
        """,
        ["Which company promoted {A}?", "How many people will {A} supervise in the new role? @1"],
        company=COMPANIES,
        n=SMALL_WORDS,
    ),
    fact(
        "workmates-party",
        "work",
        """
        A: My workmates threw me a surprise party for my birthday.
        B: Aww! What did they do?
        A: They covered my desk in balloons and [[ordered a cake shaped like a {shape}]].
        """,
        ["What kind of cake did {A}'s colleagues get?"],
        shape=("taco", "cat", "laptop", "rubber duck", "pineapple"),
    ),
    fact(
        "cycling-commute",
        "work",
        """
        A: I've started cycling to work instead of driving.
        B: Nice! How long is the ride?
        A: [[Twenty-five minutes each way]], and I've stopped needing coffee in the morning.
        """,
        ["How long is {A}'s bike commute?"],
    ),
    fact(
        "daughter-soccer",
        "family",
        """
        A: [[My daughter {kid} scored her first goal]] on Saturday!
        B: Yay! How old is she now?
        A: [[She just turned seven]]. She ran laps around the field afterwards.
        """,
        ["What did {A}'s daughter do at her soccer game?", "How old is {A}'s daughter? @1"],
        kid=KIDS,
    ),
    fact(
        "new-apartment",
        "home",
        """
        A: We signed the lease on the new apartment today!
        B: Finally! Which part of town?
        A: [[{hood}, right by the river]]. There's a balcony big enough for all my plants.
        """,
        ["Which neighbourhood is {A}'s new flat in?"],
        hood=HOODS,
    ),
    fact(
        "car-breakdown",
        "car",
        """
        A: My car died on the highway yesterday.
        B: Oh no, were you okay?
        A: Yeah, a trucker helped me push it to the shoulder. [[The alternator was dead, {price} bucks to replace]].
        """,
        ["What was wrong with {A}'s vehicle and how much did the repair cost?"],
        price=("640", "480", "720", "550", "900"),
    ),
    fact(
        "food-bank",
        "volunteer",
        """
        A: I volunteered at the food bank again this weekend.
        B: That's lovely. What did you do this time?
        A: [[Sorted about {n} boxes of canned food]] and then handed out groceries.
        """,
        ["What job did {A} do while volunteering?"],
        n=("40", "60", "75", "120", "90"),
    ),
    fact(
        "concert",
        "events",
        """
        A: We saw {band} live last night!
        B: Jealous! How was it?
        A: [[Loud and perfect, they opened with {song}]] and my ears are still ringing.
        B: Live music is the best!
        """,
        ["Which song did the band open with at the concert {A} went to?"],
        band=BANDS,
        song=SONGS,
    ),
    fact(
        "music-festival",
        "events",
        """
        A: Just got back from the {fest} festival. Three days of camping in the mud!
        B: Sounds wild! Best part?
        A: [[Dancing in the rain to a brass band at 2am]] with a bunch of strangers.
        """,
        ["What was {A}'s favourite moment at the festival?"],
        fest=("Riverbend", "Sunset Valley", "Greenfields", "Moonrise", "Harbourlights"),
    ),
    fact(
        "book-club",
        "reading",
        """
        A: Our book club picked [[{book}]] for this month.
        B: Oh, have you started it?
        A: [[I'm halfway, and I cried on the train during the lighthouse chapter]].
        """,
        ["Which book is {A}'s reading group doing this month?", "Which part of the novel made {A} cry? @1"],
        book=BOOKS,
    ),
    fact(
        "hiking-trip",
        "outdoors",
        """
        A: We're planning a hiking trip to {park} next month.
        B: Ooh, camping or a lodge?
        A: [[Camping, three nights in a tent]], if I can convince my partner.
        ---
        A: We're back from {park}!
        B: How was it?? Did it rain?
        A: [[We saw a black bear cub from the trail]]! Terrifying and magical.
        """,
        [
            "What were {A}'s plans for the trip, as told {when0}?",
            "What happened on {A}'s hike, mentioned {when1}? @1",
            "What animal did {A} see in {park}? @1",
            "How many nights did {A} plan to camp, and what did they see on the trail? @0,1",
        ],
        park=PARKS,
    ),
    fact(
        "broken-wrist",
        "health",
        """
        A: Bad news, I broke my wrist skateboarding.
        B: Ouch!! Are you okay?
        A: [[Cast for six weeks]], so no typing with my right hand for a while.
        B: Skateboarding, huh. Be careful!
        """,
        ["How long does {A} have to keep the cast on?"],
    ),
    fact(
        "cooking-class",
        "cooking",
        """
        A: My partner got me a Thai cooking class for our anniversary.
        B: Romantic! What did you cook?
        A: [[Green curry from scratch, we even pounded the paste by hand]].
        """,
        ["What dish did {A} make at the class that was an anniversary present?"],
    ),
    fact(
        "language-app",
        "education",
        """
        A: [[I started learning {language}]] with an app, 20 minutes every morning.
        B: Why {language}?
        A: [[My partner's family only speaks it]], and I want to talk to his grandma at the wedding.
        """,
        ["Which language is {A} studying?", "Why is {A} learning a new language? @1"],
        language=LANGUAGES,
    ),
    fact(
        "night-course",
        "education",
        """
        A: I enrolled in a night course on {subject} at the community college.
        B: That's great! How's it going?
        A: [[Hard, the first exam was brutal, I got a {grade}]], but the professor curves it.
        """,
        ["How did {A} do on the first test of the evening class?"],
        subject=SUBJECTS,
        grade=("C minus", "62", "D plus", "58", "B minus"),
    ),
    fact(
        "brother-wedding",
        "family",
        """
        A: My brother is getting married in the spring!
        B: Aw, congrats to him! Are you in the wedding?
        A: [[I'm the best man... well, best person]]. I have to give a speech and I'm panicking.
        """,
        ["What role does {A} have at the brother's wedding?"],
    ),
    fact(
        "oil-painting",
        "hobby",
        """
        A: I finished my first oil painting last night.
        B: What did you paint?
        A: [[The lake near my parents' cabin at sunset]]. The water looks like soup but I'm proud.
        B: Oil painting! So talented.
        """,
        ["What is the subject of {A}'s oil painting?"],
    ),
    fact(
        "trip-savings",
        "money",
        """
        A: I've been saving up for a trip to {country}.
        B: How's the fund looking?
        A: [[About {amount} dollars so far]], I've cut out takeout completely.
        """,
        ["How much money has {A} put aside for the holiday?"],
        country=COUNTRIES,
        amount=("1,800", "2,400", "950", "3,100", "1,250"),
    ),
    fact(
        "film-camera",
        "hobby",
        """
        A: I bought a secondhand camera, a film one!
        B: Retro! What are you shooting?
        A: [[Mostly old shop signs downtown]], I love how the colours come out on film.
        """,
        ["What does {A} like to photograph?"],
    ),
    fact(
        "roommate",
        "home",
        """
        B: How's the new roommate?
        A: Honestly a nightmare. [[He leaves dishes in the sink for days]] and plays drums at midnight.
        B: Drums! At midnight!
        """,
        ["What are {A}'s problems with the roommate?"],
    ),
    fact(
        "chess",
        "hobby",
        """
        A: I won my first chess tournament at the library!
        B: No way! How many games?
        A: [[Five games, I lost only one]], and the final was against a twelve-year-old.
        """,
        ["How many games did {A} play at the chess competition?"],
    ),
    fact(
        "vegetarian",
        "health",
        """
        A: I've gone vegetarian since the new year.
        B: Oh interesting, why?
        A: [[My cholesterol was through the roof]] and my doctor gave me a scare.
        """,
        ["What made {A} stop eating meat?"],
    ),
    fact(
        "job-hunt",
        "work",
        """
        A: I had an interview at {company} today.
        B: Ooh, how did it go?
        A: [[They asked me to design a parking lot app on the whiteboard]], I think I did okay.
        ---
        A: [[I got the offer from {company}]]! I start in two weeks.
        B: Yesss! Congratulations!
        A: Thanks! [[The salary is {salary}k]], way better than now.
        """,
        [
            "What happened in {A}'s job interview {when0}?",
            "What did {A} say about the job {when1}? @1",
            "What salary was {A} offered by the company that interviewed them {when0}? @2",
            "What was {A} asked to design at the interview for the job paying {salary}k? @0,2",
        ],
        company=COMPANIES,
        salary=("85", "92", "110", "78", "101"),
    ),
    fact(
        "car-buying",
        "car",
        """
        A: I'm looking at used cars, my old one is done.
        B: What are you looking for?
        A: [[Something small and electric, maybe a used {car}]].
        ---
        A: I bought the car!
        B: Which one did you go with?
        A: [[A blue {car} with only {miles} miles on it]].
        """,
        [
            "What kind of car did {A} want {when0}?",
            "What did {A} say about the car {when1}? @1",
            "Did {A} end up buying the kind of car they were looking for? @0,1",
        ],
        car=CARS,
        miles=("18,000", "22,500", "9,000", "31,000", "14,200"),
    ),
]

HELD = [
    fact(
        "parrot",
        "pets",
        """
        A: My aunt left me her parrot when she moved abroad.
        B: A parrot?! Does it talk?
        A: [[It says "good morning" at 5am and whistles the phone ringtone]].
        B: Haha, parrots are hilarious.
        """,
        ["What sounds does {A}'s bird make?"],
    ),
    fact(
        "hamster-escape",
        "pets",
        """
        A: {hamster} escaped again last night.
        B: Your hamster?? Where did you find him?
        A: [[Inside the couch cushion, eating a cracker]].
        """,
        ["Where did {A} find the missing hamster?"],
        hamster=PETS,
    ),
    fact(
        "lake-swim",
        "sport",
        """
        A: [[I'm training to swim across {lake}]] for charity.
        B: That's huge! How far is it?
        A: [[About {n} kilometres]], I'm in the pool every morning at six.
        ---
        A: [[I made it across {lake}! Raised {amount} dollars]] for the children's hospital.
        B: I'm so proud of you!
        """,
        [
            "What did {A} say about swimming {when0}?",
            "How much money did {A} raise for charity? @2",
            "How long is the swim {A} trained for? @1",
            "How far was the swim {A} completed for the children's hospital? @1,2",
        ],
        lake=LAKES,
        n=("three", "four", "five", "six"),
        amount=("2,300", "4,100", "1,700", "3,650"),
    ),
    fact(
        "wedding-cake",
        "cooking",
        """
        A: My cousin asked me to bake her wedding cake.
        B: That's a big job! What flavour?
        A: [[Lemon with elderflower cream, three tiers]], and I'm practising every weekend.
        """,
        ["What cake is {A} making for the cousin's wedding?"],
    ),
    fact(
        "knitting",
        "hobby",
        """
        A: I took up knitting, it calms me down.
        B: What are you making?
        A: [[A scarf for my dad in his football team's colours]], it's way too long already.
        """,
        ["Who is {A} knitting something for?"],
    ),
    fact(
        "layoffs",
        "work",
        """
        A: They laid off half my department today.
        B: Oh no, are you okay? Did you keep your job?
        A: [[I survived, but now I'm doing two people's work]].
        """,
        ["Was {A} affected by the job cuts?"],
    ),
    fact(
        "remote-fridays",
        "work",
        """
        A: My company is letting us work from home on Fridays now.
        B: Nice perk. What will you do with the commute time?
        A: [[Walk the dog by the canal and actually eat breakfast]].
        """,
        ["How will {A} spend the extra time from working remotely?"],
    ),
    fact(
        "piano-recital",
        "family",
        """
        A: My son {boy} had his first piano recital.
        B: How did it go?
        A: [[He played {piece} without a single mistake]], then bowed three times.
        """,
        ["What piece did {A}'s boy perform at the recital?"],
        boy=BOYS,
        piece=PIECES,
    ),
    fact(
        "roof-leak",
        "home",
        """
        A: The roof started leaking during the storm.
        B: Ugh, is there a lot of damage?
        A: [[The ceiling in the kids' bedroom caved in]], we're all sleeping in the living room.
        """,
        ["What damage did the storm do to {A}'s house?"],
    ),
    fact(
        "stolen-bike",
        "car",
        """
        A: Someone stole my bike from outside the gym.
        B: No! Did you report it?
        A: [[I found it for sale online two days later and the police got it back]].
        """,
        ["How did {A} recover the stolen bicycle?"],
    ),
    fact(
        "mentoring",
        "volunteer",
        """
        A: I've started mentoring a teenager through a youth program.
        B: That's amazing. What do you two do?
        A: [[We meet on Tuesdays to build a go-kart from scrap]], he's a natural with tools.
        """,
        ["What project is {A} doing with the mentee?"],
    ),
    fact(
        "jazz-gig",
        "music",
        """
        A: I played my first gig at a jazz club!
        B: Wait, on what instrument?
        A: [[Upright bass, my hands were shaking the whole first set]].
        """,
        ["What instrument did {A} play at the gig?"],
    ),
    fact(
        "film-festival",
        "events",
        """
        A: I volunteered at the {city} film festival this week.
        B: Did you see any good movies?
        A: [[A documentary about beekeepers in Slovenia]] made me cry, weirdly.
        """,
        ["Which film at the festival moved {A}?"],
        city=CITIES,
    ),
    fact(
        "poem",
        "reading",
        """
        A: [[One of my poems got published in a small magazine]]!
        B: That's huge! What's it about?
        A: [[My grandfather's hands, and his workshop]].
        """,
        ["What is {A}'s published poem about? @1", "Where did {A}'s poetry appear?"],
    ),
    fact(
        "canoe-trip",
        "outdoors",
        """
        A: We're going canoeing on {river} this summer.
        B: Have you canoed before?
        A: [[Never, so we booked a guide for the first day]].
        ---
        A: Back from the river trip!
        B: How was the canoeing?
        A: [[We flipped the canoe on day two and lost the cooler]] but nobody got hurt.
        """,
        [
            "What did {A} say about canoeing {when0}?",
            "What went wrong on {A}'s paddling trip? @1",
            "Had {A} paddled before the trip where the canoe flipped over? @0,1",
        ],
        river=RIVERS,
    ),
    fact(
        "sprained-ankle",
        "health",
        """
        A: I sprained my ankle at dance class.
        B: Ouch! What kind of dance?
        A: [[Salsa, I tripped over my partner's foot]] during a spin.
        """,
        ["What style of dancing was {A} doing when injured?"],
    ),
    fact(
        "scholarship",
        "education",
        """
        A: [[I got the scholarship for the nursing program]]!
        B: Congratulations!! How much is it?
        A: [[It covers {pct} percent of tuition]] for two years.
        """,
        ["How much of {A}'s fees does the grant cover? @1", "What did {A} win a scholarship for?"],
        pct=("sixty", "seventy", "eighty", "fifty"),
    ),
    fact(
        "garage-sale",
        "money",
        """
        A: We had a garage sale on Sunday.
        B: Did you sell much?
        A: [[We made {amount} dollars, mostly from old records]].
        """,
        ["How much money did {A} earn from the yard sale?"],
        amount=("340", "515", "280", "610"),
    ),
    fact(
        "moving-city",
        "home",
        """
        A: [[We're thinking about moving to {city}]] for my partner's job.
        B: Big change! How do you feel?
        A: Nervous, I'd miss everyone here.
        ---
        A: [[We found a house in {city}]]! The movers come next week.
        B: Wow, it's really happening.
        A: [[It has a yard for the dog and a tiny office for me]].
        """,
        [
            "What did {A} say about moving {when0}?",
            "What is {A}'s new place in {city} like? @2",
            "Why did {A} relocate, and what does the new house have? @0,2",
        ],
        city=CITIES,
    ),
    fact(
        "personal-trainer",
        "sport",
        """
        A: I hired a personal trainer.
        B: Fancy! How's it going?
        A: [[I can deadlift {n} kilos now]], up from nothing in January.
        """,
        ["How much weight can {A} lift now?"],
        n=("sixty", "seventy", "eighty", "ninety"),
    ),
    fact(
        "glasses",
        "health",
        """
        A: Turns out I need glasses.
        B: Oh really? What made you check?
        A: [[I kept getting headaches reading street signs at night]].
        """,
        ["Why did {A} get an eye exam?"],
    ),
]

GREETINGS = (
    ("Hey {B}! Long time no talk, how's it going?", "Hi {A}! Good, just tired. What's new with you?"),
    ("Morning {B}! Got a minute?", "Always for you, {A}. What's up?"),
    ("{B}! I have so much to tell you.", "Ooh, spill. I'm all ears."),
    ("Hi {B}, how was your weekend?", "Pretty chill, thanks {A}! Yours?"),
    ("Hey hey, {B}. Surviving the week?", "Barely, haha. What about you, {A}?"),
    ("Hello {B}! Sorry I went quiet for a bit.", "No worries {A}, life happens. How are you?"),
)
CLOSINGS = (
    ("Anyway, I should get going. Talk soon!", "Bye! Take care!"),
    ("Okay, dinner's ready, gotta run.", "Enjoy! Catch up later."),
    ("Thanks for listening, seriously.", "Anytime. Talk to you soon!"),
    ("I need to sleep, early start tomorrow.", "Night! Sleep well."),
    ("Let's catch up again soon!", "Definitely. Bye for now!"),
)
FILLERS = (
    ("How's the weather over there?", "Grey and drizzly, the usual."),
    ("Did you watch anything good lately?", "A detective series, I finished it in two nights."),
    ("I'm so tired today.", "Same. Coffee isn't even working anymore."),
    ("Have you eaten yet?", "Just a sandwich at my desk, very glamorous."),
    ("I can't believe it's already this late in the year.", "Right? Time is flying."),
    ("My phone screen cracked this morning.", "Oh no! Again?"),
    ("Any plans for the weekend?", "Not really, maybe a long walk and a nap."),
    ("I tried that new coffee place on the corner.", "Was it good? It always has a line."),
    ("The traffic this morning was unreal.", "There's roadwork everywhere right now."),
    ("I've been sleeping so badly.", "Have you tried reading instead of scrolling?"),
    ("We finally cleaned out the garage.", "That's a whole weekend gone, I bet."),
    ("My inbox is a disaster.", "Declare email bankruptcy, delete everything."),
    ("I started a new series of podcasts on history.", "Nerd. I love it."),
    ("It's been raining all week.", "At least the plants are happy."),
    ("I'm thinking of cutting my hair short.", "Do it, you'd look great."),
    ("Did you see the news about the bridge?", "Yes, the detour adds twenty minutes for me."),
    ("I ate way too much pizza last night.", "No such thing as too much pizza."),
    ("My neighbour's kid is learning the trumpet.", "Oh no. Every day?"),
    ("I lost my keys again.", "Where were they this time?"),
    ("Found them in the fridge.", "Classic."),
    ("I've been drinking way more tea lately.", "Good, less coffee jitters."),
    ("Work lunch today was surprisingly good.", "What did they have?"),
    ("I should really call my mom more.", "She'd love that, I'm sure."),
    ("The power went out for an hour yesterday.", "Board games by candlelight?"),
)
REACTIONS = ("Haha, true.", "Totally.", "Oh wow.", "Right?!", "Nice!", "Same here.", "Ha, I know.", "Yeah.")
# Sentences that pad turns to the length of real chat (a turn is often two or three sentences).
SENTENCES = (
    "Honestly this week has been a blur.",
    "I keep forgetting to drink water, which is probably why I'm so tired.",
    "The kids next door were screaming in the yard all afternoon.",
    "I still haven't unpacked the boxes from the spring clean.",
    "My back is sore from that awful office chair.",
    "We've been watching way too much television lately.",
    "It's funny how time flies when everything is busy.",
    "I made a huge pot of chili on Sunday and we're still eating it.",
    "The bus was twenty minutes late again this morning.",
    "I really need to get more sleep, I was up until two.",
    "Mom called three times yesterday about the holidays.",
    "I finally fixed the squeaky door in the hallway.",
    "Anyway, enough about me for a second.",
    "It's been raining on and off, so everything feels damp.",
    "I've been trying to read before bed instead of scrolling.",
    "My plants are the only things thriving in this apartment.",
    "The grocery store was out of oat milk, a tragedy.",
    "I spent the whole evening answering emails, so boring.",
    "Work is fine, nothing exciting, just the usual meetings.",
    "I can't stop thinking about that pizza place we went to.",
    "I want to plan something fun for the summer.",
    "My laptop keeps freezing, I think it's finally dying.",
    "There's a new bakery down the street that smells amazing.",
    "I tried meditating for ten minutes and fell asleep.",
    "We should really do a picnic when the weather is nicer.",
    "I keep meaning to call you back, sorry about that.",
    "Life has been a lot, but mostly in a good way.",
    "I took a long walk by the water yesterday to clear my head.",
    "The neighbours are renovating and the drilling starts at eight.",
    "I've been listening to old albums from high school.",
    "Can you believe it's almost the end of the month already?",
    "How are things on your side, by the way?",
    "I'm so glad we get to catch up like this.",
    "Tell me everything when you have time.",
    "That reminds me, I owe you a coffee.",
    "I was just thinking about you the other day.",
)
