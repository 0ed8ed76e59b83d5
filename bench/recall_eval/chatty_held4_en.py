"""The fourth held-out chatty set's English facts, small talk and names (the form chatty_en.py describes).

Written for the round that tried a table of everyday related words (concept groups), before any ranking
change of that round, for measuring only: no fact, slot value, name or line of small talk here appears in
the tuning sets or the earlier held-out sets, and none of it is looked at item by item to change the
ranking. Most facts have a stage told by the other speaker on the same subject without the answer (a
distractor that shares the fact's words).
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "
NAMES = ("Beatrix", "Desmond", "Fern", "Gideon", "Imogen", "Kofi", "Lorna", "Magnus", "Odile", "Percy", "Saskia")

PETS = ("Biscuit and Pickle", "Noodle and Sprout", "Ziggy and Pip")
BANDS = ("The Loose Screws", "Second Helpings", "The Tuesday Club")
TOWNS = ("Whitby", "St Ives", "Tenby", "Aldeburgh")
ISLANDS = ("Malta", "Gozo", "Crete", "Lanzarote")
FLOWERS = ("Ada and Ruby", "Mabel and June", "Pearl and Ivy")

FACTS = [
    fact(
        "h4-ferrets",
        """
        A: Don't laugh, [[we adopted two ferrets from the rescue centre, {pets}]]. They steal socks and hide them
            behind the washing machine.
        B: Ferrets! Do they smell?
        ---
        B: My aunt's parrot learned to copy the doorbell and now nobody knows when someone is actually there.
        A: That is both genius and evil.
        ---
        A: Vet bills update, [[one of the ferrets swallowed a hair tie and needed an operation]]. He's fine,
            strutting about with a little shaved belly.
        B: Poor thing, send me a picture.
        """,
        [
            "S~: What pets did {A} take home from the animal shelter?",
            "S: What did the ferret swallow? @1",
            "T: What did {A} say about the ferrets {when2}? @1",
            "I: Would {A}'s home be a good place to leave socks lying around?",
        ],
        ("There's a man in our park who walks a rabbit on a lead.",),
        pets=PETS,
    ),
    fact(
        "h4-kidney",
        """
        A: I spent last night in A&E, [[it turned out to be a kidney stone]]. I've never felt pain like it, I
            was crawling on the bathroom floor.
        B: Oh my god, are you okay now?
        ---
        B: My dad had his gallbladder out in the spring and he still complains about the hospital food.
        A: Hospital jelly is a crime.
        ---
        A: Kidney news, [[the doctor told me to drink three litres of water a day]], so now I basically live in
            the toilet at work.
        B: Hydration queen.
        """,
        [
            "S~: Why did {A} end up in the emergency department?",
            "S: How much water was {A} told to drink? @1",
            "M: What was wrong with {A}'s kidney and what did the doctor advise? @0,1",
            "I: Would {A} be carrying a water bottle around these days? @1",
        ],
        ("I've got a stitch in my side from laughing at that video.",),
    ),
    fact(
        "h4-twins",
        """
        A: Big family news, [[my sister had twins, two girls called {flowers}]]! I'm an auntie twice over in one
            afternoon.
        B: Twins! Congratulations, how is she doing?
        ---
        B: My cousin's baby screams every time someone puts a hat on her.
        A: Honestly, relatable.
        ---
        A: I did my first babysitting shift and [[both twins cried for three hours straight]]. I have never been
            so tired in my life.
        B: Did you survive?
        """,
        [
            "S~: What happened to {A}'s family, who was born?",
            "S: How did {A}'s first babysitting go? @1",
            "I~: Does {A} have nieces? @0",
            "T: What did {A} tell you about looking after the babies {when2}? @1",
        ],
        ("Babies on planes should get their own section, honestly.",),
        flowers=FLOWERS,
    ),
    fact(
        "h4-band",
        """
        A: So [[I joined a covers band called {band}, I play the bass]]. We rehearse in a garage that smells of
            motor oil.
        B: Since when do you play bass?
        ---
        B: My neighbour's son has started a drum kit in the shed and the whole street can hear every beat.
        A: Buy him a metronome as a gift.
        ---
        A: Gig report, [[we played our first show at the Crown pub and fourteen people came]]. Most of them were
            my relatives.
        B: Fourteen is a crowd!
        """,
        [
            "S~: What instrument does {A} play in the group?",
            "S: How many people came to {A}'s first gig? @1",
            "M: What is {A}'s band called and where did they first perform? @0,1",
            "I: Is {A} musical?",
        ],
        ("I heard a busker play the bagpipes outside the station this morning.",),
        band=BANDS,
    ),
    fact(
        "h4-cheese",
        """
        A: New hobby alert, [[I'm making cheese at home, a soft goat's cheese]]. The fridge is full of little
            cloth bundles dripping into bowls.
        B: That's so much effort for cheese.
        ---
        A: My proudest moment, [[my cheese won second prize at the village show]]. The judge said it was
            "bravely salty".
        B: Bravely salty! I want that on a t-shirt.
        """,
        [
            "S~: What dairy product has {A} been making in the kitchen?",
            "S: What prize did {A}'s cheese win? @1",
            "I: Does {A} enjoy cooking?",
        ],
        ("The cheese counter at the supermarket has a queue every Saturday.",),
    ),
    fact(
        "h4-promotion",
        """
        A: Guess who got promoted, [[I'm the head of logistics at the warehouse now]]. I have a parking space
            with my name on it.
        B: Finally! They should have done that years ago.
        ---
        B: My workplace brought in a rule that you can't eat at your desk and there's been a small rebellion.
        A: Desk lunches are a human right.
        ---
        A: Management is hard, [[I had to let two drivers go because of the budget]]. I didn't sleep that
            night.
        B: That's the worst part of any job.
        """,
        [
            "S~: What new position did {A} get at work?",
            "S~: What difficult thing did {A} have to do as a manager? @1",
            "T: What did {A} tell you about the job {when1}? @1",
            "I: Does {A} earn more money than before? @0",
        ],
        ("Our office printer jams every time someone is in a hurry.",),
    ),
    fact(
        "h4-seaside",
        """
        A: We did it, [[we moved to a little cottage by the sea in {town}]]. I can hear the waves from bed.
        B: Jealous doesn't cover it.
        ---
        B: My friend rented a house on the coast and the seagulls stole her whole lunch off the table.
        A: Seagulls are thugs.
        ---
        A: Seaside life isn't all sunsets, [[a storm ripped half the tiles off our roof]] and we had buckets in
            the bedroom.
        B: Oh no, is it fixed?
        """,
        [
            "S: Where did {A} move to?",
            "S~: What did bad weather do to {A}'s house? @1",
            "M: Where is {A}'s new home and what happened to its roof? @0,1",
            "I: Does {A} live near a beach?",
        ],
        ("The chip shop near the pier has the best batter I've ever had.",),
        town=TOWNS,
    ),
    fact(
        "h4-dad-marathon",
        """
        A: You won't believe this, [[my dad ran the city marathon at seventy-one]]. He finished in five hours
            and then ate three bananas.
        B: That's incredible, my knees hurt just hearing it.
        ---
        A: Dad update, [[he's signed up for a triathlon next spring]], he bought a wetsuit and sends me
            selfies in it.
        B: Your dad is fitter than both of us combined.
        """,
        [
            "S~: What race did {A}'s father finish at seventy-one?",
            "S: What is {A}'s dad training for next? @1",
            "I: Is {A}'s father in good health for his age?",
        ],
        ("There was a charity run past our flat and they blocked the road for hours.",),
    ),
    fact(
        "h4-glasses",
        """
        A: Getting old, [[the optician says I need reading glasses]]. I picked tortoiseshell frames, very
            professor.
        B: Welcome to the club, I've had mine for years.
        ---
        B: I sat on my sunglasses on the train and they snapped clean in half.
        A: A classic.
        ---
        A: Rookie mistake, [[I left my new glasses on the roof of the car and drove off]]. Gone forever.
        B: Noooo.
        """,
        [
            "S~: What did the eye test show that {A} needs?",
            "S: How did {A} lose the new glasses? @1",
            "T: What happened with {A}'s glasses {when2}? @1",
            "I: Does {A} struggle to read small print?",
        ],
        ("The screen on my phone is so cracked I read messages through a spider web.",),
    ),
    fact(
        "h4-scuba",
        """
        A: Holiday plans settled, [[I'm doing a scuba diving course in {island}]]. Five days of lessons, then
            real dives on a wreck.
        B: Aren't you scared of deep water?
        ---
        B: My brother went snorkelling and got so sunburnt he couldn't wear a shirt for a week.
        A: The back of the neck is always the worst.
        ---
        A: Diving was amazing, [[I saw an octopus hiding inside an old ship's cannon]], I nearly cried into my
            mask.
        B: That's the best thing I've heard all week.
        """,
        [
            "S~: What underwater sport is {A} learning on holiday?",
            "S: What animal did {A} see on the dive? @1",
            "M: Where did {A} learn to dive and what did they see? @0,1",
            "I: Can {A} swim?",
        ],
        ("The swimming pool near work is closed for repairs again.",),
        island=ISLANDS,
    ),
    fact(
        "h4-vegetarian",
        """
        A: I've stopped eating meat, [[I went vegetarian after watching a documentary about pig farms]]. Three
            weeks in and I miss bacon every single morning.
        B: Bacon is the hard one, everyone says that.
        ---
        B: My flatmate only eats beige food, pasta and toast and chips.
        A: That's a diet for a toddler.
        ---
        A: Cooking win, [[I made a mushroom and lentil pie for my parents]] and my dad asked for seconds without
            noticing there was no meat.
        B: Sneaky.
        """,
        [
            "S~: Why did {A} give up meat?",
            "S: What did {A} cook for the parents? @1",
            "I: Would {A} order a steak at a restaurant?",
            "I: Would {A} enjoy a bacon sandwich these days?",
        ],
        ("The new burger place on the high street has a queue round the corner.",),
    ),
    fact(
        "h4-insomnia",
        """
        A: My sleep is a mess, [[I keep waking up at four in the morning and can't drift off again]]. I lie
            there planning my whole week.
        B: That sounds awful, is it stress?
        ---
        A: Small victory, [[I stopped drinking coffee after lunch and I slept until seven]]! Seven!
        B: Coffee is the enemy.
        """,
        [
            "S~: What problem has {A} had at night?",
            "S: What did {A} change to sleep better? @1",
            "I: Does {A} feel tired during the day? @0",
        ],
        ("The street lamp outside our window is brighter than the sun.",),
    ),
    fact(
        "h4-mentor",
        """
        A: I've started volunteering, [[I mentor teenagers at a coding club on Thursday evenings]]. They're
            faster than me at everything.
        B: That's lovely of you.
        ---
        B: My nephew wants to be a video game tester and thinks it's just playing games all day.
        A: Someone has to break that news.
        ---
        A: Proud mentor moment, [[one of my students built an app that tracks the school bus]] and the head
            teacher uses it.
        B: That kid is going places.
        """,
        [
            "S~: What does {A} do to help young people each week?",
            "S: What did {A}'s student build? @1",
            "T: What did {A} say about the coding club {when1}? @1",
            "I: Is {A} good with computers?",
        ],
        ("I still don't know how to change the clock in my car.",),
    ),
    fact(
        "h4-burglary",
        """
        A: Horrible week, [[someone broke into our house and took my laptop and my grandmother's ring]]. The
            back door was smashed.
        B: That's so violating, I'm sorry.
        ---
        B: Someone tried every car door on our street last night, one of the neighbours caught it on camera.
        A: Creepy.
        ---
        A: Some good news at last, [[the police found my grandmother's ring at a pawn shop]]. I burst into tears
            at the counter.
        B: Oh that's wonderful.
        """,
        [
            "S~: What was stolen from {A}'s home?",
            "S: Where did the police find the ring? @1",
            "M: What did the burglars take and what was found again? @0,1",
            "I: Would {A} be thinking about better locks?",
        ],
        ("I lost my keys twice this week, they were in my pocket both times.",),
    ),
    fact(
        "h4-pond",
        """
        A: Garden project, [[I dug a wildlife pond at the bottom of the garden]]. It took four weekends and
            ruined two pairs of jeans.
        B: Is it deep? Be careful with kids around.
        ---
        A: Best news, [[frogs have moved into the pond]], there's spawn everywhere and I check it every
            morning with my coffee.
        B: Frog parent.
        """,
        [
            "S~: What did {A} build in the back yard?",
            "S: What moved into {A}'s pond? @1",
            "I: Does {A} like nature?",
        ],
        ("A fox has been digging up the lawn at night.",),
    ),
    fact(
        "h4-tango",
        """
        A: My husband and I signed up for something, [[we're taking tango lessons on Wednesday nights]]. He
            keeps stepping on my toes.
        B: Tango! That's so romantic.
        ---
        B: I went to a salsa night once and spent the evening holding my drink in a corner.
        A: Everyone starts in the corner.
        ---
        A: We performed, [[we danced at our teacher's summer showcase]] and nobody fell over.
        B: You have to send me the video.
        """,
        [
            "S~: What kind of dancing is {A} learning with the spouse?",
            "S: Where did {A} and the husband perform? @1",
            "T: What did {A} say about the dancing {when2}? @1",
            "I: Is {A} married?",
        ],
        ("There's a dance studio above the bakery and the ceiling shakes at six every evening.",),
    ),
]

GREETINGS = (
    ("{B}, got a minute for a gossip?", "Always, {A}. Pour the tea."),
    ("Hello hello {B}!", "Hello you, {A}! How's things?"),
    ("{B}, you'll never guess what.", "Oh no, {A}, what now?"),
    ("Evening {B}, surviving?", "Just about, {A}. You?"),
)
CLOSINGS = (
    ("Right, the dog wants his walk. Bye {B}!", "Bye {A}, love to the dog."),
    ("I'm falling asleep on the keyboard, night {B}.", "Night night {A}."),
    ("Let's do this again soon {B}.", "Deal, {A}. Cheerio."),
)
TALK = (
    ("Did you watch the match on Sunday?", "Only the second half, the first was too painful."),
    ("Is your boiler behaving?", "It makes a noise like a whale but the water is hot."),
    ("How was the dentist?", "Fine, apart from the lecture about flossing."),
    ("Did the rain stop where you are?", "For about ten minutes, then it came back angrier."),
    ("Have you finished that book?", "I'm on the last chapter and I'm making it last."),
    ("Are the roadworks still going?", "They dug the same hole three times now."),
    ("What did you do at the weekend?", "Tidied one cupboard and called it a triumph."),
    ("How's the new kettle?", "It sings when it boils, I love it."),
    ("Did you get a seat on the train?", "Standing all the way, squashed against the door."),
    ("Any news on the quiz night?", "We came fourth out of five, a personal best."),
)
REACTIONS = ("Ha, stop it.", "Oh wow.", "Bless.", "No way.", "Typical.", "Oof.", "Brilliant.")
SENTENCES = (
    "Sorry for the slow reply, the day got away from me.",
    "The wind nearly took the door off this morning.",
    "I burnt the toast twice, it's that kind of day.",
    "The neighbours are having another loft conversion, hammering since eight.",
    "I swear the week goes faster every year.",
    "I found a sock in the fridge and I have no explanation.",
    "The supermarket moved all the aisles around again.",
    "I've had the same song stuck in my head since Tuesday.",
    "My umbrella gave up halfway home.",
    "The post came at nine at night, who knows why.",
    "I really need a haircut, I look like a hedge.",
    "Right, that is quite enough of my news.",
    "What have you been up to?",
    "We must meet up before the month is out.",
    "The trains were delayed again because of leaves on the line.",
    "I've been drinking far too much fizzy water.",
)
