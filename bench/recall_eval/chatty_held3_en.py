"""The third held-out chatty set's English facts and small talk (the form chatty_en.py describes).

Written for the round that tried pseudo-relevance feedback, proximity and message-level evidence, before
any ranking change of that round, for measuring only: no fact, slot value or line of small talk here
appears in the tuning sets or the second held-out set, and none of it was looked at item by item to change
the ranking. Many facts have a stage told by the other speaker on the same subject without the answer (a
distractor that shares the fact's words).
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "

CITIES = ("Bilbao", "Lyon", "Gdansk", "Bruges", "Ljubljana", "Aberdeen")
VANS = ("Marigold", "Big Bertha", "The Toaster", "Clementine")
KIDS = ("Daisy", "Ottilie", "Bea", "Rosie", "Esme")
CLUBS = ("the Red Lion chess club", "the library chess club", "the King's Arms chess club")
ALBUMS = ("a Nina Simone record", "a Miles Davis record", "a Chet Baker record")

FACTS = [
    fact(
        "h3-bees",
        """
        A: Okay this is a weird one, [[I've started keeping two beehives on the roof of the office]]. The
            facilities manager said yes before he really thought about it.
        B: You? The person who screamed at a moth last summer?
        ---
        B: A wasp got into my car on the motorway and I nearly drove into a hedge.
        A: Oh no, wasps are pure evil, they have no purpose.
        ---
        A: The roof girls, as we call them, came through, [[our first harvest filled nine jars of honey]]. It
            tastes faintly of the lime trees along the canal.
        B: Save me a jar or we are no longer friends.
        """,
        [
            "S~: What insects has {A} been looking after at work?",
            "S: How many jars did {A}'s first harvest fill? @1",
            "T: What did {A} tell you about the bees {when2}? @1",
            "I: Would {A} have homemade presents to give friends this year? @1",
        ],
        ("There was a bee in the bathroom this morning and I had to rescue it with a glass.",),
    ),
    fact(
        "h3-tooth",
        """
        A: Disaster at dinner, [[I cracked a back tooth biting on an olive stone]]. Half of it just came away
            and now I talk like a cartoon.
        B: Ouch! Did it hurt?
        ---
        B: My dentist retired and the new one talks non-stop while both his hands are in my mouth.
        A: They always ask you questions when you can't answer.
        ---
        A: Tooth saga over, [[the dentist fitted a porcelain crown]] and it cost more than my first car.
        B: At least you can chew again.
        """,
        [
            "S~: What did {A} break at dinner?",
            "S~: What did the dentist give {A} in the end? @1",
            "M: What happened to {A}'s tooth and how was it fixed? @0,1",
            "I: Is {A} likely to be careful with olives from now on? @0",
        ],
        ("I've been using that electric toothbrush you told me about.",),
    ),
    fact(
        "h3-van",
        """
        A: I've done something reckless, [[I bought an old orange campervan and named her {van}]]. She has
            curtains and a tiny sink and no working heater.
        B: This is the most you thing ever.
        ---
        B: My cousin rented a caravan on the coast and it rained for eight days straight, they played cards
            the whole time.
        A: Honestly that sounds kind of lovely.
        ---
        A: Road trip report, [[{van}'s clutch gave up just outside {city}]], we spent two days in a garage
            forecourt eating crisps.
        B: Oh no, poor {van}!
        """,
        [
            "S~: What kind of vehicle did {A} buy?",
            "S: Where did {A}'s campervan break down? @1",
            "T: What went wrong on {A}'s trip {when2}? @1",
        ],
        ("Camping prices have gone mad this year.", "I saw a van exactly like yours at the petrol station."),
        van=VANS,
        city=CITIES,
    ),
    fact(
        "h3-knit",
        """
        A: New project, [[I'm teaching myself to knit from videos, a scarf for my niece {kid}]]. It is
            currently the width of a shoelace.
        B: Knitting! Who are you?
        ---
        A: It's done, [[I finished my first jumper and one sleeve is a hand longer than the other]]. I wear
            it anyway, with pride.
        B: Lopsided jumpers are the best kind.
        """,
        [
            "S~: What craft has {A} been learning?",
            "S: Who was {A}'s first scarf for? @0",
            "S: What was wrong with the jumper {A} made? @1",
            "I: Could {A} make a hat for your baby? @1",
        ],
        ("I keep finding bits of wool all over the flat.",),
        kid=KIDS,
    ),
    fact(
        "h3-flood",
        """
        A: Worst night ever, [[a pipe burst under the sink and flooded the whole kitchen]]. The water was up
            to my ankles by the time I found the stopcock.
        B: No! Are you okay? Is everything ruined?
        ---
        B: Our upstairs neighbour's bath overflowed and now there's a brown stain on our ceiling.
        A: Get them to pay for it, seriously.
        ---
        A: Kitchen update, [[the insurance paid for a whole new floor]], so I guess the flood was a blessing.
        B: Every cloud!
        """,
        [
            "S~: What water disaster happened in {A}'s home?",
            "S: Who paid for {A}'s new kitchen floor? @1",
            "T: What did {A} say about the kitchen {when2}? @1",
            "M: What happened to {A}'s kitchen and how did it end up? @0,1",
        ],
        ("The kitchen tap drips all night and it drives me mad.",),
    ),
    fact(
        "h3-sailing",
        """
        A: I've been doing something brave on Saturdays, [[sailing lessons on the reservoir]]. I capsized in
            the second lesson and swallowed half the lake.
        B: That's hilarious and terrifying.
        ---
        A: Guess who is officially qualified? [[I passed my dinghy certificate]], the instructor only
            sighed twice.
        B: Captain {A}!
        """,
        [
            "S~: What water sport is {A} learning at the weekend?",
            "S: What qualification did {A} get? @1",
            "T: What good news did {A} have {when1}? @1",
            "I: Could {A} take a small boat out alone now? @1",
        ],
        ("The wind was so strong today the ducks were going backwards.",),
    ),
    fact(
        "h3-niece",
        """
        A: Big family news, [[my brother's baby girl arrived on Sunday and they named her {kid}]]. She has so
            much hair, she looks like a tiny professor.
        B: Congratulations, Auntie!
        ---
        B: My friend's twins started nursery and she cried more than they did.
        A: I would be exactly the same.
        ---
        A: It's official, [[they asked me to be {kid}'s godmother]], I cried in the supermarket.
        B: That is such an honour.
        """,
        [
            "S: What did {A}'s brother name his daughter?",
            "S~: What role did {A}'s brother ask {A} to take for the baby? @1",
            "M: Who was born in {A}'s family and what was {A} asked to be? @0,1",
            "I: Is {A} an only child? @0",
        ],
        ("I bought a tiny pair of socks and I don't even have a reason.",),
        kid=KIDS,
    ),
    fact(
        "h3-night-school",
        """
        A: I signed up for something sensible for once, [[an accounting course at night school]], two evenings
            a week after work.
        B: Wow, a grown-up. Do you like it?
        ---
        A: Bad news, [[I failed the first exam by three marks]], I mixed up the balance sheet columns.
        B: Three marks is nothing, you'll get it next time.
        ---
        A: Redemption! [[I passed the resit with a distinction]], my teacher actually clapped.
        B: I knew you would!
        """,
        [
            "S~: What evening classes is {A} taking?",
            "S: How badly did {A} fail the first exam? @1",
            "M: How did {A}'s first exam go and what happened at the resit? @1,2",
            "T: What did {A} tell you about the course {when2}? @2",
        ],
        ("Numbers swim in front of my eyes after nine at night.",),
    ),
    fact(
        "h3-passport",
        """
        A: Travel nightmare, [[I lost my passport on the tram in {city}]]. Just gone, probably under a seat
            somewhere.
        B: Oh no. What do you even do?
        ---
        B: My sister left her handbag on a train once and someone handed it in with everything still inside.
        A: There are good people out there.
        ---
        A: Home at last, [[the embassy gave me an emergency travel document]] after two days of forms.
        B: Thank goodness.
        """,
        [
            "S: Where did {A} lose the passport?",
            "S~: How did {A} manage to get home without a passport? @1",
            "I: Did {A} get home on the day it was planned? @1",
        ],
        ("I always check my pockets three times before I leave a train.",),
        city=CITIES,
    ),
    fact(
        "h3-chess",
        """
        A: I joined {club}, [[I play chess every Thursday night with retired men who destroy me]].
        B: That's wholesome. Are you any good?
        ---
        A: Trophy alert, [[I came third in the county tournament]], out of sixty players.
        B: Third in the whole county!
        """,
        [
            "S~: What board game does {A} play on Thursdays?",
            "S: Where did {A} finish in the county tournament? @1",
            "I: Is {A} a beginner at chess? @1",
        ],
        ("My nephew beat me at draughts and hasn't let me forget it.",),
        club=CLUBS,
    ),
    fact(
        "h3-smoking",
        """
        A: I'm doing it properly this time, [[I've quit smoking with nicotine patches]]. Day four and I want
            to bite the furniture.
        B: You can do this, I believe in you.
        ---
        B: My uncle has smoked forty a day for fifty years and says he feels great, it's infuriating.
        A: There's always one.
        ---
        A: Milestone, [[a hundred days without a single cigarette]], I bought myself a watch with the money.
        B: So proud of you!
        """,
        [
            "S~: What habit did {A} give up?",
            "S: How long has {A} gone without a cigarette? @1",
            "T: What milestone did {A} mention {when2}? @1",
            "I: Would {A} want to stand outside with the smokers at a party? @1",
        ],
        ("The man at the bus stop blew smoke right in my face.",),
    ),
    fact(
        "h3-records",
        """
        A: My grandad left me something lovely, [[his old record player and a box of jazz records]]. The
            whole flat smells of dust and cardboard now.
        B: That's so special.
        ---
        A: Treasure hunt, [[inside one of the sleeves I found {album} signed by the band]], it might be worth
            a fortune.
        B: No way, get it valued!
        """,
        [
            "S~: What did {A}'s grandfather leave {A}?",
            "S: What did {A} find inside one of the sleeves? @1",
            "M: What did {A} inherit and what was hidden in it? @0,1",
        ],
        ("The radio in the kitchen only gets one station now.",),
        album=ALBUMS,
    ),
    fact(
        "h3-treehouse",
        """
        A: The kids begged so [[we are building a treehouse in the old oak at the end of the garden]], with a
            rope ladder and a trapdoor.
        B: Please tell me it has a flag.
        ---
        B: My neighbour's shed blew over in the storm and landed in our pond.
        A: Sheds are so fragile, honestly.
        ---
        A: It took us the entire summer but [[the treehouse is finished and the kids sleep up there]] on
            warm nights.
        B: I want one!
        """,
        [
            "S: What are {A} and the kids building in the garden?",
            "S: How long did the treehouse take? @1",
            "T: What did {A} say about the treehouse {when2}? @1",
        ],
        ("The garden is so overgrown I lost a football in it.",),
    ),
    fact(
        "h3-coeliac",
        """
        A: Finally some answers, [[the doctor says I have coeliac disease]] so no more bread or pasta for me,
            ever.
        B: Oh that's hard, you love bread more than anyone I know.
        ---
        B: My brother tried going vegan for a month and lasted four days.
        A: Four days is honestly respectable.
        """,
        [
            "S~: What condition was {A} diagnosed with?",
            "I: Can {A} eat the spaghetti at the Italian place down the road?",
        ],
        ("I baked bread for the first time and it came out like a brick.",),
    ),
]

GREETINGS = (
    ("{B}, quick question, are you busy?", "Never too busy for you {A}, I'm on the sofa."),
    ("Hiya {B}, how's life treating you?", "Not bad {A}, not bad. Yours?"),
    ("{B}! I've missed you.", "Missed you too {A}, it's been forever."),
    ("Good morning {B}, or whatever it is there.", "Morning {A}, I'm barely awake."),
)
CLOSINGS = (
    ("I'd better get back to it, bye {B}.", "See you {A}, take care."),
    ("The kettle's boiled, I'm off. Bye {B}!", "Enjoy your tea {A}!"),
    ("Speak at the weekend {B}?", "Definitely {A}, bye for now."),
)
TALK = (
    ("Did you go to the market on Saturday?", "I did, I came back with far too many apples."),
    ("Is your heating fixed yet?", "Nope, still wearing a hat indoors like a fisherman."),
    ("How was the concert?", "Loud, sweaty, worth every penny."),
    ("Are you watching the cycling on telly?", "Only the bits with mountains, the flat bits send me to sleep."),
    ("Did your delivery turn up?", "The driver left it behind the recycling bin, of course."),
    ("How's the new neighbour?", "Quiet, polite, plays the cello on Sundays, we approve."),
    ("What did you have for lunch?", "A sad sandwich at my desk, the usual."),
    ("Have you booked anything for the summer?", "Not yet, I keep looking and panicking at the prices."),
    ("Did you get caught in that hailstorm?", "Right in the middle of it, I looked like a drowned rat."),
    ("Any luck with the crossword?", "Stuck on one clue, it's been three days."),
)
REACTIONS = ("Ha, brilliant.", "Oh gosh.", "Nooo.", "Ha, fair.", "Aww, sweet.", "Unbelievable.", "Yikes.")
SENTENCES = (
    "Sorry, I've been running around all day.",
    "The lift in our building is broken again, seven floors of stairs.",
    "I spilt coffee on my only clean shirt this morning.",
    "Our street has had roadworks for three months and nothing has changed.",
    "I've been trying to go to bed earlier, it isn't working.",
    "The corner shop has started selling the nice biscuits again.",
    "My sister keeps sending me videos of her cat sneezing.",
    "It's been so foggy you can't see the end of the road.",
    "I found a spider the size of a coin in the bath.",
    "I ordered a lamp online and it arrived in a box big enough for a fridge.",
    "My phone auto-corrects my own name, which feels personal.",
    "The bakery queue went round the block on Saturday.",
    "I keep forgetting to water the plants and then apologising to them.",
    "Anyway, that's enough of my moaning.",
    "What's new with you?",
    "We really must get a date in the diary soon.",
    "The bin men didn't come again, the whole street smells.",
    "I walked ten thousand steps yesterday and I'm very smug about it.",
)
