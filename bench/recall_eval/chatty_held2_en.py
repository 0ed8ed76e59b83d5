"""The second held-out chatty set's English facts and small talk (the form chatty_en.py describes).

Written after the chatty set's first round of tuning and before the next, for measuring only: no fact, slot
value or line of small talk here appears in the tuning sets, and none of it was looked at item by item to
change the ranking. Some facts have a stage told by the other speaker about the same kind of thing (a
neighbour's dog, a friend's car) without the answer: a distractor that shares the fact's vocabulary.
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "

CITIES = ("Dundee", "Tallinn", "Leipzig", "Winnipeg", "Galway", "Trieste", "Aarhus")
COMPANIES = ("Marlow Analytics", "Fenwick Insurance", "Copperleaf Games", "Northgate Labs", "Halden Foods")
DOGS = ("Biscuit", "Pepper", "Shadow", "Waffles", "Luna", "Rocket")
KIDS = ("Poppy", "Tilly", "Greta", "Iona", "Freya", "Lottie")
INSTRUMENTS = ("upright piano", "old harmonium")
LANGUAGES = ("Japanese", "Korean", "Portuguese", "Turkish")

FACTS = [
    fact(
        "h2-greyhound",
        """
        A: News from my sister, she finally did it, [[she adopted a retired racing greyhound called {dog}]]. He
            is enormous and terrified of everything, including the toaster.
        B: Oh my heart. Greyhounds are such gentle giants.
        ---
        B: Our downstairs neighbour's terrier barked from six until midnight again, I nearly knocked on the door.
        A: Ugh, that's the worst. Did you say anything in the end?
        B: I left a polite note and a box of biscuits, we'll see.
        ---
        A: Funny update on {dog}, [[he still won't climb the stairs so my sister sleeps on the sofa downstairs
            with him]]. She claims she doesn't mind.
        B: That is true love right there.
        """,
        [
            "S~: What kind of dog did {A}'s sister take in?",
            "T: What did {A} tell you about the dog {when2}? @1",
            "I: Is the animal {A}'s sister got a young puppy? @0",
        ],
        (
            "Every dog in the park seems to hate my umbrella.",
            "My sister keeps sending me photos of dogs she wants to adopt.",
        ),
        dog=DOGS,
    ),
    fact(
        "h2-pottery",
        """
        A: I signed up for something new on Tuesday evenings, [[a pottery class at the community centre]]. My
            first bowl came out so lopsided it looks like it's melting.
        B: A melting bowl is art, keep it.
        ---
        A: Guess who had a stall at the winter craft fair? [[I sold eleven mugs in one afternoon]], strangers
            paid actual money for things I made with my hands.
        B: No way! Eleven! You're a professional now.
        """,
        [
            "S~: What hobby did {A} take up on weeknights?",
            "S: How many mugs did {A} sell at the fair? @1",
            "M: Where did {A} learn to make things out of clay, and how did the craft fair go? @0,1",
        ],
        (
            "The community centre is closed for repairs again, the roof leaks.",
            "I keep finding dried clay under my fingernails.",
            "My aunt gave me a vase she made in the seventies, it's hideous and I love it.",
        ),
    ),
    fact(
        "h2-job-offer",
        """
        A: I had the second interview at {company} today, [[for a data analyst role in their pricing team]]. The
            panel was four people and one of them only asked about spreadsheets.
        B: How did it feel? Do you think you got it?
        ---
        A: So {company} called back. [[The pay is lower than what I earn now but it's a four-day week]], and
            honestly [[I said yes because I want my Fridays back]].
        B: Fridays back is worth a lot. Congratulations!
        """,
        [
            "S~: Which position did {A} go for at {company}?",
            "T: What news did {A} have about the job {when1}? @1",
            "I~: Does {A} value spare time over a bigger paycheck? @2",
        ],
        (
            "Job hunting is a full-time job on its own, honestly.",
            "My manager scheduled a meeting called quick chat and my stomach dropped.",
        ),
        company=COMPANIES,
    ),
    fact(
        "h2-allergy",
        """
        A: Mystery solved about why I sneeze all the time, [[the skin test at the clinic said I'm allergic to
            cats]]. Of all things! I wanted one so badly.
        B: Oh no, and you always stop to pet every cat on the street.
        ---
        B: My cat has started sitting on my keyboard during every video call, my boss thinks it's hilarious.
        A: Cats know exactly when you're busy, it's a skill.
        """,
        [
            "S~: What did the doctor's test show {A} reacts badly to?",
            "I: Would {A} be comfortable staying a week in a house with a cat? @0",
        ],
        (
            "Hay fever season started early, my eyes are puffy all day.",
            "I've been taking an antihistamine every morning and it makes me sleepy.",
        ),
    ),
    fact(
        "h2-car-crash",
        """
        A: Not a great morning. [[Someone rear-ended me at the roundabout by the retail park]], nobody hurt but the
            boot is crumpled like paper.
        B: Oh no, are you okay? Whiplash can show up later.
        ---
        A: The insurance finally wrote the old car off, [[so I bought a second-hand hybrid]], it's so quiet I
            keep thinking it has stalled.
        B: Hybrids are great in town, you'll save loads on fuel.
        """,
        [
            "S~: What happened to {A}'s vehicle at the roundabout?",
            "M: Why did {A} need a new car, and what did {A} get instead? @0,1",
            "T: What did {A} buy {when1}? @1",
        ],
        (
            "Parking near the station costs more than my lunch now.",
            "My car's heater only works on the highest setting, it's either freezing or a sauna.",
        ),
    ),
    fact(
        "h2-choir",
        """
        A: I did the scary thing and joined the choir at the library. [[They put me with the altos]] because I
            can't reach the high notes without squeaking.
        B: Altos are the backbone, everyone knows that.
        ---
        A: We did the concert, [[a carol service in the old cathedral with four hundred people]], and I only came
            in early once.
        B: Four hundred! I'd have fainted.
        """,
        [
            "S~: Which voice part does {A} sing in the singing group?",
            "T: What did {A} perform {when1}? @1",
            "S: How big was the audience at {A}'s concert? @1",
        ],
        (
            "I sing in the car all the time, badly and loudly.",
            "The library changed its opening hours again, I never know when it's open.",
        ),
    ),
    fact(
        "h2-allotment",
        """
        A: After two years on the waiting list [[we finally got an allotment plot behind the railway]]. It's
            mostly brambles right now but it's ours.
        B: Two years! You must be so patient.
        ---
        A: Gardening report: [[the slugs ate every single lettuce]], but the pumpkins are the size of beanbags.
        B: Slugs are the enemy. Beer traps, apparently.
        """,
        [
            "S~: How long did {A} wait to get the garden plot?",
            "S: What happened to {A}'s lettuces? @1",
            "I: Is {A} likely to have grown vegetables this year? @1",
        ],
        (
            "Our balcony tomatoes gave us exactly three tomatoes all summer.",
            "I bought a book about composting and it's surprisingly gripping.",
        ),
    ),
    fact(
        "h2-grandpa",
        """
        A: Grandpa turned ninety on Saturday and [[we rented a narrowboat for the whole family]]. He insisted on
            steering the entire day and only bumped one bridge.
        B: That's amazing, ninety and still captaining.
        """,
        [
            "S~: How did {A}'s family celebrate the old man's ninetieth?",
            "I: Is {A}'s grandfather still quite active? @0",
        ],
        (
            "My grandad still phones me every Sunday to ask about the weather.",
            "We found a box of old family photos in the attic last weekend.",
        ),
    ),
    fact(
        "h2-wrist",
        """
        A: Don't laugh. [[I fell off the ladder painting the ceiling and broke my wrist]]. Six weeks in a cast.
        B: Oh no! Which hand?
        A: The right one, of course. [[I've been teaching myself to write with my left hand]], it looks like a
            spider walked through ink.
        """,
        [
            "S~: How did {A} hurt their arm?",
            "S: What has {A} been learning to do while in the cast? @1",
            "T: What accident did {A} have {when0}?",
        ],
        (
            "The ceiling still has one unpainted corner, it mocks me.",
            "Hospitals always smell like floor polish and worry.",
        ),
    ),
    fact(
        "h2-language",
        """
        A: I started learning {language} for the trip next year. [[I do flashcards on the tram every morning]],
            the man next to me has started helping.
        B: That's adorable, a tram tutor.
        ---
        A: Big news, [[I passed the beginner certificate exam]]! Only just, but a pass is a pass.
        B: Amazing, all those tram rides paid off!
        """,
        [
            "S~: Which language is {A} studying?",
            "M: How does {A} practise {language}, and what test did {A} pass? @0,1",
            "T: What did {A} achieve {when1}? @1",
        ],
        (
            "I downloaded three language apps and they all shout at me with notifications.",
            "The tram was so full this morning I rode with my face against the window.",
        ),
        language=LANGUAGES,
    ),
    fact(
        "h2-relocation",
        """
        A: It's official, [[my partner got the hospital job in {city} so we're moving]] in the spring.
        B: That's a big one. What about your work?
        A: [[My manager agreed I can work from home full time]], so nothing changes there. Just the view.
        ---
        A: {city} update: [[the winters here are so dark I bought one of those daylight lamps]], it's on from
            breakfast till noon.
        B: I hear those actually help.
        """,
        [
            "S~: Why did {A} relocate to {city}?",
            "I: Did {A} have to leave their job because of the move? @1",
            "T: How was {A} coping with the weather {when1}? @2",
        ],
        (
            "Packing the kitchen is the worst part of any move.",
            "Rents everywhere are getting ridiculous.",
        ),
        city=CITIES,
    ),
    fact(
        "h2-cake",
        """
        A: I agreed to bake the cake for my friend's wedding, [[three tiers of lemon and elderflower]]. What was I
            thinking.
        B: You'll be brilliant, you always overthink it.
        ---
        A: The wedding cake survived, mostly. [[The top tier slid off in the car on the way]] and I rebuilt it in
            the venue car park with a butter knife.
        B: Nobody will ever know. Legend.
        """,
        [
            "S~: What flavour was the cake {A} made for the marriage celebration?",
            "S: What went wrong with the cake on the way to the venue? @1",
            "M: What cake did {A} bake for the wedding and what happened to it in the car? @0,1",
        ],
        (
            "I've eaten so much cake this month I need a week of salad.",
            "My oven runs hot on one side so everything comes out lopsided.",
        ),
    ),
    fact(
        "h2-laptop",
        """
        A: The worst thing happened, [[my laptop got stolen from the café]] while I was ordering, I turned around
            for thirty seconds.
        B: No! Was your thesis on it?
        A: [[Luckily I'd backed up the thesis chapter on a memory stick that morning]]. Pure luck.
        """,
        [
            "S~: What was taken from {A} at the coffee shop?",
            "S: How did {A} still have the thesis chapter? @1",
            "I: Is {A} probably a student? @1",
        ],
        (
            "The café by the station has the worst wifi in the city.",
            "My phone screen has a crack right across the middle.",
        ),
    ),
    fact(
        "h2-piano",
        """
        A: I did something silly, [[I bought an {instrument} at a church sale for fifty pounds]]. Getting it up the
            stairs took four people and a lot of swearing.
        B: Fifty! Does it even play?
        ---
        B: My niece started piano lessons and practises the same three notes all day, my sister is losing it.
        A: Ha, it gets better. Eventually.
        ---
        A: The tuner came to look at it. [[He said the hammers are worn flat and need replacing]], which costs more
            than the thing itself.
        B: Classic. Still worth it though.
        """,
        [
            "S~: How much did {A} pay for the musical instrument?",
            "S: What did the tuner say about {A}'s piano? @1",
            "T: What did {A} get at a sale {when0}? @0",
        ],
        (
            "The people upstairs moved a wardrobe at midnight, it sounded like thunder.",
            "I've been watching videos of people playing piano in train stations.",
        ),
        instrument=INSTRUMENTS,
    ),
    fact(
        "h2-swimming",
        """
        A: Proud parent moment, [[{kid} got her twenty-five metres badge at the swimming pool]]. A year ago she
            wouldn't put her face in the water.
        B: That's huge! Tell her well done from me.
        ---
        B: The pool near us closed for a month to fix the tiles, everyone is crammed into the other one.
        A: Ugh, lane rage.
        """,
        [
            "S~: What did {A}'s daughter achieve at the pool?",
            "I: Was {A}'s daughter always confident in the water? @0",
        ],
        (
            "Swimming lessons are at seven on Saturday morning, who decided that.",
            "I lost another pair of goggles, the pool must have a drawer of them.",
        ),
        kid=KIDS,
    ),
    fact(
        "h2-fence",
        """
        A: We're in a fight with next door. [[They built their new fence a foot onto our side]] and pretend not to
            see the problem.
        B: Oh no, neighbour wars. That can get nasty.
        ---
        A: Peace treaty! [[We agreed to split the cost of a hedge instead of the fence]], the mediator even shook
            our hands.
        B: A hedge is nicer anyway.
        """,
        [
            "S~: What was {A}'s argument with the people next door about?",
            "M: What was the problem with the fence, and how did {A} and the neighbours settle it? @0,1",
            "T: What did {A} and the neighbours agree on {when1}? @1",
        ],
        (
            "Our neighbours have a trampoline now and the kids scream all evening.",
            "Somebody keeps parking across our driveway.",
        ),
    ),
]

GREETINGS = (
    ("{B}? Are you free for a sec?", "Always for you {A}, I'm just folding laundry."),
    ("Long time no talk {B}!", "I know {A}, terrible of us. What's new?"),
    ("Evening {B}, you'll never guess what.", "Uh oh, {A}. Go on, spill."),
    ("{B}!! Got a minute?", "For you {A}, two. What's up?"),
)
CLOSINGS = (
    ("Anyway I should go, speak later {B}.", "Later {A}, big hug."),
    ("My tea's gone cold, bye {B}!", "Ha, bye {A}!"),
    ("Right, dinner time. Love you {B}.", "Love you too {A}, bye."),
    ("Okay, off to bed. Night night {B}.", "Night {A}!"),
)
TALK = (
    ("Did you finish that series in the end?", "Yes, and the ending made no sense at all, I'm still annoyed."),
    ("Is it cold where you are?", "Freezing, I'm wearing two jumpers indoors."),
    ("How's your back?", "Better since I stopped sleeping on the sofa."),
    ("Have you eaten yet?", "Just toast, I'll do something proper later, maybe."),
    ("Are you going to the quiz night?", "Probably, if someone else drives."),
    ("What are you reading at the moment?", "A thriller about a lighthouse keeper, it's very silly and I love it."),
    ("Did the plumber come?", "Eventually, three hours late, and he fixed it in ten minutes."),
    ("How are your parents?", "Fine, they've discovered podcasts and talk about nothing else."),
    ("Is the power back on?", "Yes, after a whole evening of candles and board games."),
    ("Did you get any sleep?", "About four hours, the wind was howling all night."),
)
REACTIONS = ("Ha, no way.", "Same, honestly.", "Oof.", "Aw.", "Seriously?", "Typical.", "Brilliant.")
SENTENCES = (
    "Sorry, I've had the longest day.",
    "The washing machine is making a noise like a jet engine again.",
    "I've been drinking far too much tea this week.",
    "My phone battery dies by lunchtime now, it's ancient.",
    "Everything in the supermarket costs double what it did.",
    "I walked past that bakery we like and it's closed for good, so sad.",
    "The wind blew our bins halfway down the street last night.",
    "I started a puzzle book and now I dream in crosswords.",
    "My to-do list has a to-do list at this point.",
    "We've had soup for dinner four nights in a row and nobody has complained.",
    "It's been so grey I've forgotten what the sun looks like.",
    "I fell asleep on the train and woke up two stops late.",
    "I cleaned out the fridge and found a lemon from another era.",
    "The kettle broke so I'm boiling water in a pan like a pioneer.",
    "Anyway, enough about me.",
    "How's everything on your side?",
    "I really need a holiday, even a long weekend.",
    "We should meet up properly soon, it's been months.",
    "I bought new shoes and they have already given me blisters.",
    "There's a pigeon that sits on our windowsill and judges me.",
)
