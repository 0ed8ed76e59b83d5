"""The sixth held-out chatty set's English facts, small talk and names (the form chatty_en.py describes).

Written blind, for measuring only: by someone who had not read the ranking's word tables, its concepts or its
tests, nor the fourth and fifth held-out sets' facts, with subjects, names, places and small talk of its own,
and none of it looked at item by item to change the ranking. The style differs from the earlier sets: longer
turns that run on over two or three messages a stage, many facts that change later (the question asks what
holds now, or what was decided at one time), a stage told by the other speaker on the same subject without the
answer (a distractor), echoes that name the same people and places, and questions in everyday words that say
the thing differently from how it was told.
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "
NAMES = ("Bronwen", "Ciaran", "Delphine", "Gwilym", "Henrietta", "Lorcan", "Octavia", "Percival", "Saoirse", "Thaddeus")

FRAMES = ("tortoiseshell", "bottle-green", "see-through plastic", "thin gold wire")
STREETS = ("Carver Street", "Ashdown Road", "Mill Lane", "Tanner's Row")
HOODS = ("Fenwick", "Larkhill", "the old docks")
KIDS = ("Poppy", "Martha", "Edie", "Frankie")
RACE_CITIES = ("Bristol", "Cardiff", "Brighton", "York")
OLD_CARS = ("Ford Focus", "Vauxhall Corsa", "Skoda estate", "Honda Jazz")
PARTNERS = ("Tiago", "Rui", "Duarte")
PT_TOWNS = ("Braga", "Coimbra", "Faro")
RABBITS = ("Clover", "Biscuit", "Mrs Nibbles")
COMPANIES = ("Hartwell Logistics", "Brightmere", "Quill & Stone")
JOB_CITIES = ("Aberdeen", "Belfast", "Newcastle")
TRIP_COUNTRIES = ("Norway", "Finland", "Slovenia", "Canada")
LODGERS = ("Katrin", "Anneke", "Sofie")
LODGER_HOMES = ("Hamburg", "Utrecht", "Aarhus")
MARKETS = ("Christmas market on the green", "farmers' market by the cathedral", "church craft fair")
SISTERS = ("Harriet", "Louisa", "Freya")
TWINS = ("Arthur and Mabel", "Ned and Lottie", "Albie and Rose")
PUBS = ("Red Lion", "Fox and Fiddle", "Bell")
QUIZ_TEAMS = ("Quiztopher Columbus", "the Know-It-Ales", "Les Quizerables")

FACTS = [
    fact(
        "h6-eyesight",
        """
        A: I've been squinting at the telly for months and blaming the telly, but I finally went to the optician
            on the high street. Turns out it's me, not the telly, [[I'm short-sighted and I've got my first pair of
            glasses, big round {frames} frames]]. I look like a professor who keeps owls.
        B: Oh I bet they suit you though. Can you see the leaves on the trees now?
        A: Honestly yes, it's ridiculous, I didn't know trees were that detailed. I keep stopping in the street to
            stare at bricks.
        ---
        B: I went for my own eye test after you told me about yours and the woman said my eyes are perfect, which
            I'm choosing to take as a personal achievement.
        A: Smug. Very smug. Did they do the puff of air thing?
        B: Twice, because I blinked the first time and she sighed at me.
        ---
        A: Small update on the face situation, [[I've given up on the specs and moved to daily contact lenses]].
            They steamed up every time I opened the oven or came in from the cold, and I was fed up with wiping
            them on my jumper.
        B: Lenses! Aren't you scared of poking yourself in the eye?
        A: The first week I spent twenty minutes every morning chasing one round my eyeball, but I've got the
            knack now.
        """,
        [
            "S~: What did {A} find out at the eye test?",
            "S: What frames did {A} choose for the first glasses?",
            "S~: What does {A} wear to see properly these days? @1",
            "M~: How has the way {A} deals with bad eyesight changed since the optician visit? @0,1",
            "T~: What did {A} decide {when2} about the glasses? @1",
            "I~: Could {A} read a road sign far away without help before going to the optician?",
        ],
        ("I keep seeing adverts for blue light glasses everywhere, are they even a real thing?",),
        frames=FRAMES,
    ),
    fact(
        "h6-housing",
        """
        A: Bad news week, I'm afraid. [[Our landlord is selling up, so we've had a letter giving us two months to
            find somewhere else]]. He was apologetic about it, I'll give him that, he brought round a tin of
            biscuits with the letter.
        B: Two months! That's nothing with rents the way they are. Are you trying to stay in the area?
        A: Ideally, yes. But I've seen what's on the market and I might cry.
        ---
        B: My sister's been flat hunting in {hood} for ages, she says every viewing has forty people queuing on
            the stairs.
        A: That sounds exactly like what we're about to walk into.
        B: She's started bringing a printed CV and a reference from her dentist. I'm not joking.
        ---
        A: We got one! [[We've signed for a two-bed above the launderette on {street}, seven minutes' walk from
            the school, and we move in on the first]]. It always smells of clean washing, which is a weirdly
            comforting thing to come home to.
        B: That's brilliant, I'm so relieved for you. Is it noisy with the machines?
        A: A gentle rumble until eight, then nothing. I find it quite soothing, like living on a boat.
        """,
        [
            "S~: Why does {A} have to move out of their place?",
            "S~: Where is {A}'s new home? @1",
            "M: Why did {A} have to leave the old flat and where did they end up? @0,1",
            "T: What did {A} announce {when2} about the move? @1",
            "I~: Will the school run be a long trek from {A}'s new address? @1",
        ],
        ("Rents round here have gone completely mad, I saw a box room in {hood} advertised for nine hundred a month.",),
        street=STREETS,
        hood=HOODS,
    ),
    fact(
        "h6-kid-music",
        """
        A: Big excitement in our house, [[{kid} has started violin lessons at school and we're renting a tiny
            half-size violin]]. Every practice sounds like a cat being gently stepped on, but she's so proud of
            herself.
        B: Aw, bless her. Half-size, like a toy!
        A: It comes in a little case with a velvet lining, she opens it like it's treasure.
        ---
        B: My nephew got a trumpet for his birthday and my brother has banned him from playing it before nine in
            the morning.
        A: Reasonable. Trumpets don't have a quiet setting.
        ---
        A: Music update, and you'll laugh. [[{kid} has given up the violin and switched to drums, so there's an
            electric kit in the box room now and the violin has gone back]]. At least it has headphones, so the
            neighbours only hear the thump of the pedal.
        B: From violin to drums is quite a leap!
        A: She says the violin was too polite. Her words. She's seven.
        """,
        [
            "S~: Which instrument did {kid} first learn?",
            "S~: What does {A}'s daughter play at the moment? @1",
            "M: What instrument did {kid} drop and what did she take up instead? @0,1",
            "T: What happened with {kid}'s music {when2}? @1",
            "I~: Is {A} still paying to hire the little violin? @1",
        ],
        ("{kid} has a school concert coming up and I've been told I'm not allowed to film it.",),
        kid=KIDS,
    ),
    fact(
        "h6-diet",
        """
        A: New month, new nonsense. [[My flatmate and I are doing a whole month without meat]], mostly because we
            watched a documentary about chicken farms and felt awful. I've bought a lot of lentils and I have no
            idea what to do with them.
        B: Lentils are great in a curry, honestly, just throw loads of spices at them.
        A: That's basically my plan for every meal for the next four weeks.
        ---
        B: I tried going vegan for a month once and ate nothing but crisps and toast for three weeks. Not my
            finest hour.
        A: Crisps are technically vegan, so you won.
        ---
        A: You'll never guess, [[I've kept going without meat, but I've started eating fish again, so I suppose
            I'm a pescatarian now]]. My mum keeps asking if I've joined a cult.
        B: Ha! What made you keep at it?
        A: I just feel better, less sluggish after lunch. And smoked mackerel on toast is too good to give up.
        """,
        [
            "S~: What food challenge did {A} take on with the flatmate?",
            "S~: What does {A} eat these days? @1",
            "M: How has {A}'s diet changed since that first month? @0,1",
            "T: What did {A} and the flatmate start {when0}?",
            "I~: Would {A} order a steak at a restaurant now? @1",
        ],
        ("There's a new burger place by the station and the queue goes round the block.",),
    ),
    fact(
        "h6-race",
        """
        A: I've done something rash, [[I've entered the {race_city} half marathon]]. I can currently run for about
            as long as it takes to catch a bus, so there's some work to do.
        B: Oh wow, are you following a plan?
        A: Sixteen weeks, there's an app that shouts at me. I've already named it Sergeant.
        ---
        B: A woman at my work ran an ultramarathon last weekend, a hundred kilometres through the night. She was
            back at her desk on Monday eating a doughnut like nothing had happened.
        A: That's not a person, that's a machine.
        ---
        A: Sad running news. [[I've got shin splints and the physio told me to stop, so I've deferred my place to
            next year]]. I'm gutted, I was up to eighteen kilometres.
        B: Oh no, after all that training. How long do you have to rest?
        A: Six weeks of swimming and feeling sorry for myself.
        """,
        [
            "S~: What long-distance event did {A} sign up for?",
            "S~: Why did {A} miss the race in the end? @1",
            "M: Which race did {A} enter and what stopped them taking part? @0,1",
            "T: What did {A} tell you about the running {when2}? @1",
            "I~: Did {A} cross the finish line in {race_city} that year? @1",
        ],
        ("Loads of people were out jogging along the canal this morning in those tiny shorts.",),
        race_city=RACE_CITIES,
    ),
    fact(
        "h6-grandad",
        """
        A: My grandad is a stubborn old goat. [[He finally got hearing aids from the audiologist, and he won't
            wear them, they live in a drawer with the batteries]]. He says everyone just needs to stop mumbling.
        B: My nan was exactly the same. Everyone in the family mumbled except her, apparently.
        A: He had the telly on so loud last week that the neighbour came round to ask if we were having a party.
        ---
        B: My dad's just needed reading glasses for the first time and he's pretending he doesn't. He holds the
            menu at arm's length and says the print is badly designed.
        A: Our family would get on very well with your family.
        ---
        A: Grandad update, and it's a nice one, [[he wears the hearing aids every day now because he can hear the
            birds in the garden again]]. He sat on the bench and cried a little, and then told me that if I
            mentioned it he'd disown me.
        B: Oh, that's made my eyes go. What changed his mind?
        A: My cousin put them in for him while he was napping. Sneaky, but it worked.
        """,
        [
            "S~: What did {A}'s grandfather get from the hearing clinic?",
            "S~: How did {A}'s grandad treat his new devices at first?",
            "S: Why does {A}'s grandad wear his hearing aids now? @1",
            "M: How has {A}'s grandad's attitude to his hearing aids changed? @0,1",
            "I~: Is the telly still blaring at {A}'s grandad's house these days? @1",
        ],
        ("Grandad rang me three times today to ask how to turn the radio off.",),
    ),
    fact(
        "h6-car",
        """
        A: We've done the grown-up green thing, [[we sold the old {old_car} and we're going car-free, using the
            car-share bay at the end of the road]]. Honestly it mostly sat there costing money and collecting
            leaves.
        B: Brave! How do you do the big supermarket shop?
        A: Online delivery, and a shopping trolley on wheels for top-ups. I'm very glamorous.
        ---
        B: I'm thinking about getting rid of my car too, but then I remember my mum lives two buses and a ferry
            away.
        A: That's the catch, isn't it. Everything's fine until you need to go somewhere awkward.
        ---
        A: Confession, the car-free era is over. [[We've bought a secondhand electric Nissan, a little white one,
            and we charge it from the lamp post outside]]. The car-share was always booked at weekends and the
            kids rebelled.
        B: Ha, that lasted longer than I thought it would. Do you like it?
        A: It's silent, I keep sneaking up on pedestrians by accident.
        """,
        [
            "S~: What did {A} do with the family's old vehicle?",
            "S~: What does {A} drive now? @1",
            "M~: How did {A}'s way of getting around change over the year? @0,1",
            "T~: What change to getting about did {A} make {when0}?",
            "I~: Does {A} still need to stop for petrol? @1",
        ],
        ("Someone's parked across our drive again, three days in a row now.",),
        old_car=OLD_CARS,
    ),
    fact(
        "h6-promotion",
        """
        A: Okay, I have actual news, [[I've been promoted to team lead, so I'm managing five people now]]. Which
            means I spend my whole day in meetings about meetings, but there's a pay rise, so.
        B: Congratulations! That's massive. Do you like being the boss?
        A: Ask me in a month. So far it's mostly approving holiday requests.
        ---
        B: My manager just put a one-to-one in my calendar called 'quick chat' for Friday at half four. That's
            never good, is it?
        A: That's the most terrifying invite in the world.
        B: It turned out she wanted to know if I liked the new coffee machine.
        ---
        A: I've made a decision and I feel lighter already, [[I've asked to step back from leading the team and go
            back to hands-on work as a senior engineer]]. I missed actually building things, I was miserable in
            spreadsheets.
        B: That takes guts. Was your boss okay about it?
        A: She was great, actually. She said she'd wondered how long I'd last.
        """,
        [
            "S~: What new position did {A} get at work?",
            "S~: What is {A}'s job these days? @1",
            "M: What role was {A} given and what did they choose to do afterwards? @0,1",
            "T: What did {A} decide {when2} about work? @1",
            "I~: Is {A} still in charge of other people at work? @1",
        ],
        ("We've got a new office manager who labels everything in the fridge.",),
    ),
    fact(
        "h6-portuguese",
        """
        A: I've started learning Portuguese, [[{partner}'s whole family lives outside {pt_town} and I want to talk
            to his grandmother without him translating]]. Three weeks in, I can order bread and apologise.
        B: The two most important things. Are you doing an app or a class?
        A: Both, plus a very patient tutor online who laughs at my vowels.
        ---
        B: I did French at school for five years and all I remember is how to say my pencil case is yellow.
        A: That's exactly my level in Portuguese, minus the pencil case.
        ---
        A: I'm so proud of myself. [[We went over to visit and I had a whole conversation with the grandmother in
            Portuguese, about her tomatoes]]. She told me I sound like a soap opera, which I think was a
            compliment.
        B: That's amazing! All about tomatoes?
        A: For forty minutes. She has strong opinions about tomatoes.
        """,
        [
            "S~: Why is {A} studying a new language?",
            "S~: What did {A} chat to {partner}'s grandma about on the trip? @1",
            "M: Why did {A} take up Portuguese and how did it go on the visit? @0,1",
            "T: What did {A} proudly tell you {when2}? @1",
            "I~: Is {partner}'s family from Portugal?",
        ],
        ("{partner} tried to make his grandmother's custard tarts again and burnt every single one.",),
        partner=PARTNERS,
        pt_town=PT_TOWNS,
    ),
    fact(
        "h6-allergy",
        """
        A: Well, that explains a lot, [[I found out I'm allergic to cats, my eyes swelled shut at my in-laws'
            after their tabby slept on my lap]]. I looked like I'd done three rounds in a boxing ring.
        B: Oh no! Had you never noticed before?
        A: I thought I was just a sneezy person. It turns out I'm a very specific kind of sneezy person.
        ---
        B: My flatmate wants a kitten so badly she's started sending me photos of them at two in the morning.
        A: Send her a picture of my face after that weekend and she'll change her mind.
        ---
        A: We have a new member of the household, [[we adopted a rabbit called {rabbit} from the rescue, since a
            cat was out of the question]]. She lives in the kitchen and chews every cable she can reach.
        B: A rabbit! Is she friendly?
        A: She thumps her back foot at me when I'm late with dinner, so, sort of.
        """,
        [
            "S~: What animal sets off {A}'s allergy?",
            "S~: What kind of pet lives with {A} now? @1",
            "S: What is {A}'s rabbit called? @1",
            "M: Why couldn't {A} get a cat, and what did they get instead? @0,1",
            "I~: Would {A} be a good person to look after your cat for a week?",
        ],
        ("The rescue centre on the ring road is having an open day with a bouncy castle.",),
        rabbit=RABBITS,
    ),
    fact(
        "h6-tooth",
        """
        A: Sorry if I sound funny, [[I cracked a back tooth on an olive stone at a work dinner and half of it just
            came away]]. I had to sit through the rest of the meal smiling with my mouth shut.
        B: Ouch! Did you get an emergency appointment?
        A: Tomorrow morning. I've been chewing on the other side like a hamster.
        ---
        B: I haven't been to the dentist in four years, please don't tell me off.
        A: I'm telling you off. Go.
        ---
        A: The tooth saga is over, [[the dentist did a root canal and then put a crown on it, three visits in
            all]]. I've spent more time in that chair than on my sofa this month.
        B: Poor you. Was it as bad as people say?
        A: The injections were the worst bit. The rest was just loud.
        """,
        [
            "S~: How did {A} break a tooth?",
            "S~: What dental work did {A} need in the end? @1",
            "M: What happened to {A}'s molar and how did it get fixed? @0,1",
            "T: What did {A} tell you {when0} about the work dinner?",
        ],
        ("I've bought one of those electric toothbrushes that tells you off for brushing too hard.",),
    ),
    fact(
        "h6-job-offer",
        """
        A: Keep this quiet, [[I had a second interview at {company} and they've offered me the job, more money but
            it's based in {job_city}]]. I've been pacing the kitchen for an hour.
        B: That's amazing! Would you really move?
        A: I don't know. My whole life is here. But the money, though.
        ---
        B: My cousin moved for a job last year and now he spends every weekend on a train home, which rather
            defeats the point.
        A: That's exactly my worry, to be honest.
        ---
        A: I've made up my mind, [[I turned down the {company} offer because I didn't want to leave my mum on her
            own]]. My current boss found out and gave me a small raise anyway, which felt like a pat on the head.
        B: Good for you. Do you regret it at all?
        A: At three in the morning, occasionally. The rest of the time, no.
        """,
        [
            "S~: Which firm wanted to hire {A}, and where would the job have been?",
            "S~: Did {A} take the new job? @1",
            "S: Why did {A} say no to {company}? @1",
            "T: What did {A} decide {when2}? @1",
            "I~: Has {A} moved to {job_city}? @1",
        ],
        ("LinkedIn keeps emailing me about jobs I'm wildly unqualified for.",),
        company=COMPANIES,
        job_city=JOB_CITIES,
    ),
    fact(
        "h6-flip-phone",
        """
        A: I've gone full hermit, [[I swapped my smartphone for an old flip phone that only does calls and
            texts]]. The first two days I kept reaching into my pocket to check nothing.
        B: Respect. How do you get around without maps?
        A: I printed a map. On paper. Like a Victorian.
        ---
        B: I checked my screen time report and it said nine hours a day, so I've turned the report off.
        A: Problem solved.
        ---
        A: The experiment is over, [[I've gone back to a smartphone because I couldn't log into my bank or pay for
            parking without an app]]. The flip phone lives in the drawer for festivals now.
        B: Ha, I did wonder. Were you sad about it?
        A: A bit. I read four books while I had it.
        """,
        [
            "S~: What sort of mobile did {A} switch to?",
            "S~: What phone does {A} use now? @1",
            "S: Why did {A} give up on the flip phone? @1",
            "M: What did {A} try with their phone and how did it end? @0,1",
            "T: What did {A} tell you {when0} about their phone?",
            "I~: Was {A} using apps for directions in the weeks after the swap?",
        ],
        ("My phone screen has a crack across it shaped like a lightning bolt.",),
    ),
    fact(
        "h6-hedge",
        """
        A: We're at war with next door, [[our neighbour's conifer hedge is so tall it blocks all the afternoon sun
            from our garden and he refuses to cut it]]. I've left a polite note. And then a less polite note.
        B: Oh, hedge wars are the worst kind of wars. Isn't there a law about it?
        A: There's some council procedure, apparently, but I really don't want to go down that road.
        ---
        B: Our neighbours have a wind chime that goes all night, I've started dreaming about wind chimes.
        A: At least you can't see a wind chime from your kitchen window.
        ---
        A: Peace has broken out, [[we agreed to split the cost of a tree surgeon with next door and the hedge is
            now half the height]]. We had a drink over the fence to celebrate, very civilised.
        B: Finally! So you get your evenings outside back?
        A: Until about six. I sat out there with a book like a lizard.
        """,
        [
            "S~: What was {A} fighting about with the people next door?",
            "S~: How did {A} settle the row with the neighbour? @1",
            "M: What was the trouble over the hedge and how was it resolved? @0,1",
            "T: What did {A} tell you {when2} about next door? @1",
            "I~: Does {A}'s garden get more sunshine now? @1",
        ],
        ("The council still hasn't emptied the garden waste bin, it's overflowing with clippings.",),
    ),
    fact(
        "h6-holiday",
        """
        A: Booked it! [[We're going to {country} in the autumn, a week in a little cabin by a lake]]. I've been
            staring at the photos every night instead of sleeping.
        B: Oh, jealous. Is it your first time there?
        A: First time. I've bought a phrasebook and a waterproof coat, which I think makes me an expert.
        ---
        B: We were meant to go camping this year, but the tent still smells of last year's festival, so we're not.
        A: Some smells can't be washed out. Some things are just destiny.
        ---
        A: Travel disaster, [[my passport had run out and the renewal didn't come back in time, so we had to cancel
            the trip]]. Two weeks before. I could scream.
        B: No! Did you get your money back?
        A: Most of it. The cabin lady was lovely about it.
        ---
        A: We rescued the week, sort of, [[we took the tent to a farm campsite in Pembrokeshire instead]]. It
            rained five days out of seven and we played cards in the car.
        B: That's a very British holiday.
        A: The kids said it was the best holiday ever, so who am I to argue.
        """,
        [
            "S~: Where was {A} planning to go away to?",
            "S~: Why did {A}'s trip abroad fall through? @1",
            "S: Where did {A} end up going instead? @2",
            "M: What went wrong with {A}'s holiday plans and what did they do instead? @1,2",
            "T: What happened with {A}'s travel plans {when2}? @1",
            "I~: Did {A} get to stay by the lake in {country}? @1",
        ],
        ("The airport near us has started charging five pounds just to drop someone off.",),
        country=TRIP_COUNTRIES,
    ),
    fact(
        "h6-lodger",
        """
        A: We've got a lodger now, [[to help with the mortgage, a PhD student from {lodger_home} called {lodger}
            has moved into the spare room]]. She bakes bread at midnight, so the house smells amazing when I get
            up.
        B: Oh, a lodger! Isn't it weird having a stranger in the house?
        A: The first week, yes. Now she's basically family who pays rent.
        ---
        B: I had a lodger once who kept a snake in the airing cupboard. I only found out when it got out.
        A: I'm going to need you to never say that sentence again.
        ---
        A: Sad day here, [[{lodger} finished her PhD and moved out to take a job in Edinburgh]]. She left us some
            of her bread starter and a very long note about how to feed it.
        B: Oh, you'll miss her! Are you getting someone else?
        A: Not for a while. I need to grieve the bread.
        """,
        [
            "S~: Who is renting {A}'s spare bedroom?",
            "S~: Does {lodger} still live with {A}? @1",
            "S: Where did {lodger} go after she moved out? @1",
            "T: What did {A} tell you {when2} about {lodger}? @1",
            "I~: Is {A}'s spare room free at the moment? @1",
        ],
        ("{lodger} has been teaching us card games from {lodger_home} and I lose every single one.",),
        lodger=LODGERS,
        lodger_home=LODGER_HOMES,
    ),
    fact(
        "h6-head-shave",
        """
        A: Right, I need your money, [[I'm shaving my head for the hospice that looked after my aunt, and I'm
            aiming for five hundred pounds]]. My hair has been with me for thirty-odd years, so this is emotional.
        B: Oh, I'll sponsor you straight away. Are you doing it in public?
        A: In the pub on Saturday, with a raffle and my cousin on the clippers, which is frankly the scary part.
        ---
        B: My cousin dyed her hair bright blue for a charity thing at work and it still hasn't washed out, she
            looks like a mermaid who does accounts.
        A: That's a look, though.
        ---
        A: It's done and I'm bald as an egg, [[we raised over twelve hundred pounds, more than double what I was
            hoping for]]. My head is so cold, I've bought three woolly hats.
        B: That's incredible! How does it feel?
        A: Like a peach. Everyone keeps stroking it without asking.
        """,
        [
            "S~: What did {A} do to raise money for the hospice?",
            "S: How much money did {A} raise in the end? @1",
            "M: What was {A}'s fundraising target and how much came in? @0,1",
            "T: What did {A} tell you {when2} about the fundraiser? @1",
            "I~: Does {A} have much hair right now? @1",
        ],
        ("The hospice charity shop on the corner has a whole rail of wedding dresses now.",),
    ),
    fact(
        "h6-sleep",
        """
        A: I went to the sleep clinic in the end, because I've been nodding off on the train every afternoon,
            [[and they told me I've got sleep apnoea, I stop breathing dozens of times a night]]. Which explains
            the snoring I've been teased about for years.
        B: Oh gosh, that sounds scary. Can they fix it?
        A: They're sending me home with a machine. I'll report back.
        ---
        B: I've been wearing one of those sleep tracking rings and it tells me I slept badly, which I knew,
            because I was there.
        A: Technology, telling us what we already know.
        ---
        A: So, the machine, [[I wear a CPAP mask every night now and I wake up feeling like a new person]]. I look
            like a fighter pilot, but I haven't dozed off on the train in weeks.
        B: That's brilliant. Does it make a noise?
        A: A little hum. Much quieter than me, apparently.
        """,
        [
            "S~: What did the doctors diagnose {A} with?",
            "S~: What does {A} wear in bed now? @1",
            "M~: What health problem did {A} find out about and how is it being treated? @0,1",
            "T: What did {A} tell you {when0} about the clinic?",
            "I~: Is {A} still falling asleep on the way home? @1",
        ],
        ("I read that people are sleeping worse than ever, which didn't help me sleep.",),
    ),
    fact(
        "h6-pottery",
        """
        A: I've got a new obsession, [[I bought a secondhand potter's wheel from a retired art teacher and set it
            up in the garage]]. The first thing I made looked like a squashed hat.
        B: Oh, that's so calming though, isn't it? Like in the film.
        A: It's the opposite of calming. Clay gets everywhere. I found some in my ear.
        ---
        B: I did a one-off pottery class for my birthday and made a mug with a handle you can't fit a finger
            through.
        A: So it's a decorative mug.
        ---
        A: Kiln heartbreak, [[I took my first batch to the community kiln and four out of six bowls cracked]]. The
            two that survived are a bit wonky, but they hold soup.
        B: Oh no. Do you know what went wrong?
        A: Air bubbles, the man said. I now think about air bubbles all the time.
        ---
        A: A proud moment, [[I had a stall at the {market} and sold every single mug]]. People actually paid money
            for things I made in the garage.
        B: I'm so chuffed for you! Are you going to do more?
        A: Someone asked if I take commissions. I said yes before thinking.
        """,
        [
            "S~: What did {A} buy for making ceramics, and where is it kept?",
            "S~: How did {A}'s first firing go? @1",
            "S: Where did {A} sell the mugs? @2",
            "M: How did {A}'s pottery go from the first batch to selling it? @1,2",
            "T: What did {A} tell you {when3} about the pottery? @2",
            "I~: Is {A}'s clay hobby bringing in any money now? @2",
        ],
        ("The garage door is stuck again, I had to climb in through the side window.",),
        market=MARKETS,
    ),
    fact(
        "h6-climbing",
        """
        A: I've taken up climbing, [[I go bouldering twice a week at the wall in the old tram shed]]. My forearms
            ache so much I can't open jars.
        B: Oh, I've always wanted to try that! Is it scary?
        A: The walls are only a few metres high and there's a giant crash mat. The scary part is the lycra.
        ---
        B: A lad at work goes climbing on real cliffs in the Peak District and comes in every Monday with a new
            scab.
        A: That's the next level. I'm happy indoors with the snacks.
        ---
        A: Climbing injury, of course, [[I dislocated my little finger on an overhang and it's strapped up for a
            month]]. I'm typing this with nine fingers.
        B: Ouch! Is it going to be okay?
        A: It's fine, the nurse popped it back in like she was opening a crisp packet.
        """,
        [
            "S~: What sport did {A} take up, and where?",
            "S~: How did {A} hurt their hand? @1",
            "M: What new hobby did {A} start and what injury did it cause? @0,1",
            "T: What did {A} tell you {when2} about climbing? @1",
            "I~: Could {A} go climbing the week after the accident? @1",
        ],
        ("There's a climbing film on at the little cinema, the one where the man goes up without ropes.",),
    ),
    fact(
        "h6-twins",
        """
        A: Huge family news, [[my sister {sister} is pregnant with twins]]. She's horrified and delighted in equal
            measure, and her husband has gone very quiet and started researching double buggies.
        B: Twins! Do they run in your family?
        A: Apparently our great-grandmother was a twin, which nobody mentioned until now.
        ---
        B: My neighbour has triplets and I genuinely don't know how she's still standing. She has a spreadsheet
            for nappies.
        A: A spreadsheet for nappies is the most terrifying sentence I've heard all year.
        ---
        A: They're here! [[{sister} had a boy and a girl, {twins}, and they've asked me to be godparent]]. I held
            them both at once and nearly dropped a sandwich on them.
        B: Oh, congratulations! How's your sister doing?
        A: Exhausted, but she's already arguing with everyone about who they look like.
        """,
        [
            "S~: What was {A}'s big news about {sister} having a baby?",
            "S: What are {sister}'s babies called? @1",
            "S~: What has {A} been asked to be for the babies? @1",
            "M: What was {sister} expecting and what did the babies turn out to be? @0,1",
            "T~: What family news did {A} share {when2}? @1",
            "I~: Does {A} have a niece? @1",
        ],
        ("{sister} has started a group chat called Operation Pram and it gets forty messages a day.",),
        sister=SISTERS,
        twins=TWINS,
    ),
    fact(
        "h6-garden-office",
        """
        A: Working from home upgrade, [[we put a little insulated cabin at the bottom of the garden to be my
            office]]. It has a desk, a heater and a spider I've named Colin.
        B: Oh, the dream! No more kitchen table?
        A: No more kitchen table. I walk twelve metres to work, it's the best commute in the world.
        ---
        B: My husband wants a shed for his model trains and I've said only if I never have to go in it.
        A: That seems fair. Trains can be very demanding.
        ---
        A: Office update, less glamorous, [[I've moved back indoors to the dining room, because the cabin gets damp
            and the wifi won't reach it]]. The cabin is now where the bikes live.
        B: Oh no, after all that! Was it the cold?
        A: The wifi, mostly. I had to stand on the desk to join calls.
        """,
        [
            "S~: What did {A} build in the garden for working in?",
            "S~: Where does {A} work from these days? @1",
            "S: Why did {A} give up on the garden office? @1",
            "M: Where has {A} been working from over the year? @0,1",
            "T: What did {A} tell you {when2} about the home office? @1",
            "I~: Is {A} still walking down the garden to start work? @1",
        ],
        ("Next door's builders start at half seven with a radio that only plays power ballads.",),
    ),
    fact(
        "h6-pub-quiz",
        """
        A: I've joined a pub quiz team, [[every Thursday at the {pub}, and our team is called {team}]]. We came
            second to last, but the chips are excellent.
        B: Ooh, what are you good at? Geography?
        A: Nothing, it turns out. I knew one answer and it was about Greek gods.
        ---
        B: We had a quiz at my work and I got every music question wrong, including one about a band I've seen
            live.
        A: Pressure does that to people.
        ---
        A: Historic night, [[{team} won for the first time, and the prize was a giant tin of chocolates and a meat
            raffle voucher]]. We ate the chocolates in the car park.
        B: Ha! Well done! What won it for you?
        A: A tiebreak about the height of a giraffe. I was closest.
        """,
        [
            "S~: What does {A} do on Thursday nights?",
            "S: What is {A}'s quiz team called?",
            "S~: What did {A}'s team get for coming first? @1",
            "M: Where does {A} play the quiz and what did the team win in the end? @0,1",
            "T: What happened at the quiz {when2}? @1",
        ],
        ("{team} have taken on a new member who only knows about football.",),
        pub=PUBS,
        team=QUIZ_TEAMS,
    ),
    fact(
        "h6-food-bank",
        """
        A: I've started volunteering, [[I help sort donations at the food bank every Saturday morning]]. You would
            not believe how many tins of chickpeas people give away. Mountains of them.
        B: That's lovely. Is it hard work?
        A: Lots of lifting, and a very bossy retired headmistress who runs the pasta shelf.
        ---
        B: Our school does a harvest collection and my son insisted on donating a single tin of peaches, very
            solemnly.
        A: The peaches will be appreciated, tell him.
        ---
        A: They've roped me in properly now, [[I'm coordinating all the Saturday volunteers, so I do the rota and
            the ordering]]. The headmistress has accepted me as her equal, which is the real honour.
        B: Ha, promoted! Do you get paid for that bit?
        A: Not a penny, but I get first pick of the biscuits.
        """,
        [
            "S~: How does {A} spend Saturday mornings?",
            "S~: What is {A}'s job at the food bank now? @1",
            "M: How has {A}'s role at the food bank changed? @0,1",
            "T: What did {A} tell you {when2} about volunteering? @1",
            "I~: Is {A} paid for the Saturday work?",
        ],
        ("The supermarket has a donation trolley by the tills now and it's always full of pasta.",),
    ),
]

GREETINGS = (
    (
        "{B}, have you got ten minutes? I've got a cup of tea and a lot to say.",
        "I've got twenty, {A}, and biscuits. Go.",
    ),
    (
        "Evening {B}! Sorry I went quiet, the week ran me over.",
        "No need to apologise {A}, mine did the same. How are you?",
    ),
    ("Hiya {B}, I'm on the train so this might cut out.", "Ha, classic, {A}. Talk fast before the tunnel."),
    ("{B}!! Finally, a quiet moment. How's life?", "Chaos as usual, {A}, but the nice kind. You?"),
    ("Morning {B}, I'm awake far too early and thought of you.", "Flattered and worried, {A}. What's up?"),
)
CLOSINGS = (
    ("I'd better rescue the washing before it rains, speak soon {B}.", "Go, save the socks. Bye {A}!"),
    ("Right, someone's shouting for me from upstairs. Love to everyone, {B}.", "You too {A}, talk next week."),
    ("My battery's about to die, {B}, so this is goodbye for now.", "Charge up, {A}. Night!"),
    ("That was a proper catch-up, thanks {B}.", "Always, {A}. Don't leave it so long next time."),
)
TALK = (
    (
        "How's your back these days?",
        "Better since I stopped working from the sofa, though I still sit like a question mark.",
    ),
    (
        "Did you end up going to that birthday thing?",
        "I did, and I stayed until the end, which for me is a miracle. There was a magician and he was terrible.",
    ),
    (
        "What are you reading at the moment?",
        "A huge fantasy book with a map at the front, four hundred pages in and I still don't know who anyone is.",
    ),
    (
        "Have you had that cold that's going round?",
        "Twice. I'm convinced it's the same one and it just went away for a week.",
    ),
    (
        "What's the weather doing your way?",
        "Sunny in the morning, hailstones at lunch, sunny again by three. I've stopped trying to dress for it.",
    ),
    ("Did you watch the match?", "I watched the first half and then fell asleep, so in my head we're still winning."),
    (
        "How's the new kettle?",
        "Boils in about a minute and plays a little tune when it's done. I love it more than some people.",
    ),
    (
        "Are you doing anything for the long weekend?",
        "Painting the hallway, allegedly. More likely lying on the hallway floor looking at paint samples.",
    ),
    (
        "Have you spoken to your brother lately?",
        "A long call on Sunday, mostly about his fantasy football team, which I don't follow at all.",
    ),
    (
        "What did you have for lunch?",
        "Crackers and a sad bit of cheese, standing at the kitchen counter like a raccoon.",
    ),
    ("How's the garden looking?", "The slugs have eaten everything except the weeds, which are thriving."),
    (
        "Did you sort out your broadband?",
        "After three hours on hold and a man called Gary, yes. He was lovely. I think about Gary sometimes.",
    ),
)
REACTIONS = (
    "Oh, bless.",
    "Ha, no way.",
    "That's so you.",
    "Ugh, sorry.",
    "Brilliant.",
    "Oh, lovely.",
    "Stop it, really?",
)
SENTENCES = (
    "Sorry, I've just realised I've been talking about myself for ten minutes.",
    "The man upstairs has started learning the trombone, so that's my evenings sorted.",
    "I've had a week where every single thing took three attempts, even the toaster.",
    "I keep meaning to ring you properly instead of typing essays, but here we are.",
    "The washing machine has started walking across the kitchen on the spin cycle.",
    "I had a dream last night that I was late for an exam I didn't know I'd signed up for.",
    "Work is fine, in the sense that nothing is actually on fire yet.",
    "I walked past that café where we had the enormous scones and it's closed down, I was quite sad.",
    "There's a fox that sits on our wall every evening like it owns the place.",
    "I've eaten toast for dinner three nights running and I'd do it again.",
    "It's been so grey here I've forgotten what my shadow looks like.",
    "I found a to-do list from months ago and I've done exactly one thing on it.",
    "My phone keeps showing me photos from five years ago and I look so young it's rude.",
    "The corner shop has started stocking a cheese I love, so my budget is ruined.",
    "I've been trying to go to bed earlier and it's going about as well as you'd expect.",
    "Anyway, tell me about you, I feel like I've been hogging the chat.",
    "We need to actually meet up in person, it's been far too long.",
    "I got caught in the rain without a coat and arrived looking like a drowned cat.",
    "There are roadworks on every single street near us, I think they're digging for fun.",
    "I've started doing the crossword on the bus and I've never felt older.",
    "My mum sent me a forty-second voice note that was entirely her looking for her keys.",
    "The heating's been playing up and I'm typing this in a hat.",
    "I bought a fancy candle to feel like a grown-up and then knocked it into the sink.",
    "Honestly, I've missed these chats.",
)
