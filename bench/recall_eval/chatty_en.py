"""Hand-written facts for the chatty evaluation (English), in the form chatty.py reads.

Each fact: a key, its lines (`A:` the person it is about, `B:` the friend; `---` separates stages told in
sessions weeks apart; the evidence text marked `[[...]]`), its questions, each `K: text @picks` with K the
category (S single fact, M multi-session, T temporal, I inference; `~` after it: the question words the
thing differently from the evidence, colleagues for workmates) and picks the marked evidence that answers
it (default the first), lines on the same things said in other sessions (echoes: they hold the fact's
words but not its answer) and the slots filled per conversation. `{whenN}` in a question is the date of
stage N's session ("in June", "on 3 June 2023", "last June"). An indented line continues the turn above it.

Written for this evaluation: no text from a public benchmark.
"""

from __future__ import annotations

from recall_eval.chatty_en_work import FACTS as WORK_FACTS
from recall_eval.chatty_talk import CLOSINGS, GREETINGS, REACTIONS, SENTENCES, TALK, fact

__all__ = ["CLOSINGS", "FACTS", "GREETINGS", "REACTIONS", "SENTENCES", "TALK"]

CITIES = ("Porto", "Halifax", "Ghent", "Tucson", "Bergen", "Cork", "Valencia", "Quebec City")
COMPANIES = ("Lumenfield", "Ardent Robotics", "Kestrel Health", "Bluepine", "Oakridge Media", "Vantage Freight")
HOODS = ("Hollybrook", "the Canal District", "Sutton Hill", "Brickfield", "Juniper Row")
COUNTRIES = ("Portugal", "Chile", "Georgia", "Slovenia", "Sri Lanka", "Scotland", "Mexico")
DOGS = ("Pretzel", "Juniper", "Bowie", "Nugget", "Clementine", "Moose", "Dottie")
KIDS = ("Nora", "Elsie", "Ivy", "Hazel", "Maeve", "Wren")
BOYS = ("Arlo", "Jude", "Milo", "Rowan", "Silas", "Ezra")
DISHES = ("plum dumplings", "cabbage rolls", "lemon drizzle cake", "chicken paprikash", "apple strudel")


FACTS = [
    fact(
        "bike-commute",
        """
        A: So I finally caved and bought something for the commute, [[a used steel {bike} with fat tyres]]. It
            weighs a ton but it rolls over the potholes like they aren't there.
        B: Wait, you're cycling to the office now? In this traffic?
        A: Forty minutes each way along the river path. I arrive sweaty but weirdly happy.
        ---
        A: Worst morning. [[Somebody stole the front wheel of my bike]] while it was locked outside the library,
            just the wheel, like a vulture.
        B: Nooo. Who even steals half a bike?
        A: I walked it home on one wheel. [[I'm getting a folding one so it can come inside with me]], I'm done
            leaving it on the street.
        """,
        [
            "S~: What kind of bicycle did {A} buy for getting to work?",
            "T: What happened to {A}'s bike {when1}? @1",
            "M: What did {A} decide to get after the theft, and what was the first bike like? @2,0",
            "I~: Would {A} be likely to drive a car to the office? @0",
        ],
        (
            "The bike lane on the bridge is closed again, they keep repainting it.",
            "My tyre went flat on the way to the market, I had to push it for a mile.",
            "Do you ever cycle in the rain or is that madness?",
        ),
        bike=("Surly", "Kona", "Marin", "Raleigh", "Genesis"),
    ),
    fact(
        "jogging",
        """
        B: You sound out of breath, were you running?
        A: Just back, yes. I've been going every morning before work and [[I'm up to ten kilometres without
            stopping]]. Three months ago I couldn't do one.
        B: That's a huge jump. What changed?
        A: [[A podcast about Roman history]], honestly. I keep going to hear what happens next.
        """,
        [
            "S~: How far can {A} jog now without a break?",
            "S: What keeps {A} motivated on morning runs? @1",
            "I: Is {A} an early riser?",
        ],
        (
            "My knees are complaining, maybe I need new trainers.",
            "There was a fun run in the park, everyone dressed as bananas.",
        ),
    ),
    fact(
        "new-flat",
        """
        A: We signed! [[A two-bedroom flat above a bakery in {hood}]]. The stairs are steep but the smell in the
            morning is unreal.
        B: Above a bakery is dangerous, you'll eat croissants every day.
        ---
        A: Update from the bakery flat: [[the ovens start at four so the floor is warm all winter]], we barely use
            the heating.
        B: Free underfloor heating, amazing.
        """,
        [
            "S~: What kind of apartment did {A} rent?",
            "T: Where did {A} move {when0}?",
            "S~: Why does {A} hardly need to heat their apartment? @1",
            "M: Which neighbourhood is {A}'s new place in, and what is odd about its floor? @0,1",
        ],
        (
            "Our landlord wants to put the rent up again, of course.",
            "Moving boxes are still stacked in the hall, we live around them.",
            "The neighbours upstairs play drums on Sundays.",
        ),
        hood=HOODS,
    ),
    fact(
        "trip-country",
        """
        A: It's booked! Our holiday in {country}, [[ten days, mostly on slow trains]], no car, no plans beyond the
            first night.
        B: Jealous. Slow trains sound dreamy.
        ---
        A: Back from {country} and I miss it already. [[The night train got stuck for six hours behind a
            landslide]], and we made friends with a whole carriage.
        B: That's the best kind of disaster story.
        """,
        [
            "S~: How long is {A}'s vacation in {country}?",
            "T: What happened on {A}'s trip {when1}? @1",
            "M: How did {A} plan to travel around {country}, and what went wrong with the train? @0,1",
        ],
        (
            "Flights are so expensive this year, we might just stay home.",
            "I need a holiday so badly, even a weekend would do.",
        ),
        country=COUNTRIES,
    ),
    fact(
        "son-school",
        """
        A: Big week, {boy} started [[at the little Montessori school on Elm Street]]. He marched in without looking
            back, I was the one crying.
        B: Aww, the parent always cries first.
        """,
        [
            "S~: Which school does {A}'s kid go to?",
            "T: What big change happened for {A}'s son {when0}?",
        ],
        (
            "Packed lunches are my enemy, he eats nothing but crackers.",
            "The school run traffic is unbelievable in the mornings.",
        ),
        boy=BOYS,
    ),
    fact(
        "mum-surgery",
        """
        A: Quick update, my mum finally had the operation, [[her left knee was replaced on Tuesday]] and she's
            already bossing the nurses around.
        B: That sounds exactly like her. How's the pain?
        A: Manageable. [[She's walking with a frame and wants to be back in her garden by May]].
        """,
        [
            "S~: What surgery did {A}'s mother have?",
            "S: What is {A}'s mom hoping to do after recovering? @1",
            "I: Is {A} close to their mother?",
        ],
        (
            "My mum called three times yesterday about the holidays.",
            "Hospitals always smell the same, it makes me nervous.",
        ),
    ),
    fact(
        "car-buy",
        """
        A: We did it, we bought a car after eight years without one. [[A secondhand Toyota Prius in a colour they
            call champagne]].
        B: Champagne! Fancy. Why now?
        A: [[My dad lives two hours away by bus]] and visiting him was taking the whole weekend.
        """,
        [
            "S~: What vehicle did {A} purchase?",
            "S: Why did {A} decide to get a car? @1",
            "T: What did {A} buy {when0}?",
        ],
        (
            "Parking in the city is impossible, I circled for half an hour.",
            "Petrol prices went up again this week.",
        ),
    ),
    fact(
        "doctor-iron",
        """
        A: I went to the doctor about being tired all the time and [[it turns out I have a mild iron deficiency]].
            So it wasn't just me being lazy.
        B: Vindicated! What do they want you to do?
        A: [[Iron tablets and more lentils]], apparently. I'm eating spinach like a cartoon sailor.
        """,
        [
            "S~: What did the physician find was wrong with {A}?",
            "S: What treatment was {A} told to follow? @1",
            "I: Why has {A} been feeling exhausted?",
        ],
        (
            "I finally booked a check-up, first one in years.",
            "Everyone in the office has a cold right now.",
        ),
    ),
    fact(
        "anniversary-gift",
        """
        B: So what did you get {partner} for the anniversary? You were stressing about it.
        A: [[A vintage record player I found at a flea market]], and I fixed the belt myself. {partner} cried, then
            put on an awful album from the eighties.
        B: That's so thoughtful. Ten years, right?
        A: [[Ten years in October]], I can't believe it.
        """,
        [
            "S~: What present did {A} give {partner} for their anniversary?",
            "S: How long have {A} and {partner} been together? @1",
            "I: Is {A} handy with repairs?",
        ],
        (
            "I never know what to buy people for birthdays.",
            "We found a box of old vinyl in the attic, mostly polka.",
        ),
        partner=("Sam", "Alex", "Jamie", "Robin", "Charlie"),
    ),
    fact(
        "dog-adopt",
        """
        A: Meet the newest member of the family, [[a beagle puppy called {dog}]]. Eleven weeks old and already
            chewed a shoe.
        B: Oh my heart! Where did you find him?
        A: [[The shelter on Harbour Road]], he was the loudest one there.
        """,
        [
            "S~: What breed is {A}'s dog?",
            "S: Where did {A} adopt {dog} from? @1",
            "T: Who joined {A}'s family {when0}?",
            "T: When did {A} adopt {dog}?",
        ],
        (
            "The dog next door barks at every leaf.",
            "I want a dog so badly but my flat is tiny.",
        ),
        dog=DOGS,
    ),
    fact(
        "grandma-recipe",
        """
        A: I spent Sunday with my grandmother learning her [[{dish}, the ones she makes every Christmas]]. She
            measures nothing, it's all by feel.
        B: Did you write it down?
        A: I filmed her. [[The secret is a spoon of sour cream in the dough]], which she denied until I showed her
            the video.
        """,
        [
            "S~: What dish did {A}'s granny teach them?",
            "S: What is the secret ingredient in the family recipe? @1",
            "I: Does {A} care about family traditions?",
        ],
        (
            "My grandmother still sends me birthday cards with cash in them.",
            "I burned the rice again last night, I'm hopeless in the kitchen.",
        ),
        dish=DISHES,
    ),
    fact(
        "trek",
        """
        A: We're back from the coast, [[three days on the Lost Coast trail with everything on our backs]]. My
            shoulders are ruined.
        B: You hiked the whole thing? With a tent?
        A: With a tent and [[a bag of licorice that kept me alive on the last climb]].
        """,
        [
            "S~: Which trek did {A} complete, and for how long?",
            "T: What trip did {A} get back from {when0}?",
            "I: Does {A} enjoy the outdoors?",
        ],
        (
            "Hiking boots are so expensive, I'm still wearing my old ones.",
            "We wanted to go camping but the forecast was awful.",
        ),
    ),
    fact(
        "flu-week",
        """
        A: Sorry for going silent, I was ill all week. [[It was the flu, a proper fever for four days]], I watched
            every season of a baking show.
        B: Oh no, are you better now?
        A: Mostly. [[I still can't taste coffee]], which is a tragedy.
        """,
        [
            "S~: What was {A} sick with, and for how long?",
            "S: What lingering effect did the illness leave on {A}? @1",
            "T: Why did {A} go quiet {when0}?",
        ],
        (
            "Half the office is coughing, I'm wearing a scarf over my face.",
            "I take vitamin C every winter and still catch everything.",
        ),
    ),
    fact(
        "brother-wedding",
        """
        A: My brother's wedding is settled, [[a vineyard outside {city} in September]], and I'm somehow giving a
            speech.
        B: A speech! Are you going to tell the camping story?
        ---
        A: The wedding was perfect. [[My speech got a laugh at the camping story]] and my brother only threw one
            bread roll at me.
        B: Only one? You got off lightly.
        """,
        [
            "S: Where is {A}'s brother getting married?",
            "S~: How did {A}'s toast go at the marriage celebration? @1",
            "M: Where was {A}'s brother's wedding and how did {A}'s speech go? @0,1",
        ],
        (
            "Weddings this summer: four. My wallet is crying.",
            "I never know what to wear to a wedding.",
        ),
        city=CITIES,
    ),
    fact(
        "tv-binge",
        """
        A: I need to confess: [[I watched the whole Danish detective series in one weekend]], all thirty episodes. I
            can now say thank you in Danish.
        B: Thirty! Did you sleep?
        """,
        [
            "S~: What TV show did {A} binge over a weekend?",
            "I: Does {A} like crime stories?",
        ],
        (
            "We got rid of the television and now we just stare at the wall.",
            "There's nothing good to watch, I scroll for an hour and give up.",
        ),
    ),
    fact(
        "tomatoes",
        """
        A: The balcony garden is out of control, [[we got eleven kilos of tomatoes from four plants]]. I'm giving
            them to strangers.
        B: Eleven kilos on a balcony? What's your secret?
        A: [[Coffee grounds from the café downstairs]], they give me a bucket every week.
        """,
        [
            "S: How many tomatoes did {A}'s plants produce?",
            "S: What does {A} feed the tomato plants? @1",
            "I: Does {A} enjoy gardening?",
        ],
        (
            "My basil died again, I think I love it too much.",
            "The community garden has a waiting list of two years.",
        ),
    ),
    fact(
        "climbing-gym",
        """
        A: I tried bouldering at the new climbing gym and [[I sprained my wrist on the very first wall]]. Forty
            minutes in, very glamorous.
        B: Oh no! Are you going back?
        ---
        A: Wrist is healed and I went back to the climbing gym, [[I finally finished a blue route]], which is the
            second easiest but still.
        B: Progress! Blue today, black tomorrow.
        """,
        [
            "S: How did {A} get hurt at the climbing gym?",
            "S: What climbing milestone did {A} reach after healing? @1",
            "M: What injury did {A} get bouldering, and what did they achieve when they went back? @0,1",
            "T: What happened to {A} at the gym {when0}?",
        ],
        (
            "I signed up for the gym in January and went twice.",
            "My forearms hurt just from watching climbing videos.",
        ),
    ),
    fact(
        "sofa-couch",
        """
        A: We bought a new sofa and [[it doesn't fit through the door, we had to take the window out]]. The whole
            street watched.
        B: Through the window? Like a piano in a cartoon?
        """,
        [
            "S~: How did {A} get the new couch into the flat?",
        ],
        (
            "Our old sofa has a spring that pokes you if you sit on the left.",
            "Furniture shopping is the fastest way to start a fight.",
        ),
    ),
    fact(
        "phone-lake",
        """
        A: I dropped my phone in the lake at the regatta. [[It's somewhere at the bottom with two years of photos]],
            and no, I didn't back them up.
        B: Oh no. Is there a tiny chance it survived?
        A: [[A diver friend went looking and found a boot and a bicycle instead]].
        """,
        [
            "S~: What happened to {A}'s mobile at the regatta?",
            "S: What did the diver find when searching for {A}'s phone? @1",
            "I: Does {A} back up their files?",
        ],
        (
            "My phone screen cracked this morning, again.",
            "I spend way too much time on my phone at night.",
        ),
    ),
    *WORK_FACTS,
]
