"""The seventh held-out chatty set's English facts, small talk and names (the form chatty_en.py describes).

Written blind, for measuring only: by someone who had not read the ranking's word tables, its concepts or its
tests, nor the earlier held-out sets' facts beyond their subjects and names (to keep clear of them), with
subjects, names, places and small talk of its own, and none of it looked at item by item to change the ranking.
Like the sixth set: long turns over two or three messages a stage, facts that change later (the question asks
what holds now, or what happened at one time), a stage told by the other speaker on the same subject without
the answer (a distractor), echoes that name the same people and places, and questions in everyday words that
say the thing differently from how it was told (the theatre club for am-dram, the animal doctor for the vet,
a sword sport for fencing), some of them only answerable by putting two things together.
"""

from __future__ import annotations

from recall_eval.chatty_talk import fact

JOINER = " "
NAMES = (
    "Araminta",
    "Barnaby",
    "Clemency",
    "Evander",
    "Jocasta",
    "Leopold",
    "Marguerite",
    "Peregrine",
    "Philippa",
    "Rufus",
)

HALLS = ("the Corn Exchange", "St Aldhelm's church hall", "the Quay Street Playhouse")
PLAYS = ("a murder mystery set on a sleeper train", "a seaside farce", "an old Ealing comedy")
BEACHES = ("Saltburn", "Camber Sands", "Rhossili")
FISH = ("neon tetras", "guppies", "zebra danios")
RANGES = ("the cricket club's back field", "the leisure centre sports hall", "the scout hut field")
VENUES = ("the Jolly Ferryman", "the cellar bar under the Majestic", "the Swan's back room")
SHOPS = ("the bakery", "the post office", "the chemist's")
FIRMS = ("Pemberton & Vale", "Holloway Briggs", "Ashcombe Partners")
AUNTS = ("Winifred", "Marjorie", "Edna")
VILLAGES = ("a village near Hay-on-Wye", "a hamlet outside Kendal", "a village on the Llŷn peninsula")
HOMELANDS = ("Brazil", "Kenya", "the Philippines")
HALF_BROTHERS = ("Craig", "Stuart", "Glen")
NZ_TOWNS = ("Dunedin", "Napier", "Nelson")
CHURCHES = ("St Cuthbert's", "St Wilfrid's", "All Saints'")
BOATS = ("Plankton", "the Soggy Biscuit", "Miss Splinter")
SHOWS = ("Spin to Win", "Brain Drain", "The Big Ask")
SONS = ("Alfie", "Ollie", "Reuben")
COLLEAGUES = ("Bethan", "Niamh", "Priya")
SWAP_CITIES = ("Kraków", "Seville", "Tromsø")
PUPS = ("Juno", "Barley", "Otis")
DERBY_NAMES = ("Ruth Less", "Anne Tagonist", "Bruise Almighty")

FACTS = [
    fact(
        "h7-amdram",
        """
        A: I've done something very out of character, [[I joined the amateur dramatics society at {hall}, and I've
            been cast as the gardener in {play}]]. It's six lines, and one of them is just "Good evening, madam."
        B: Oh, I love that! Do you get a costume?
        A: A flat cap and wellies. The director says I have a face made for the background, which I think was
            meant kindly.
        ---
        B: My cousin did am-dram for years and once went completely blank on stage, so he made up a whole speech
            about soup until someone fed him his line from the wings.
        A: That's my new nightmare, thank you.
        B: The audience clapped the soup speech, apparently. Louder than the rest of the play.
        ---
        A: Right, panic stations, [[the man playing the detective fell off a ladder and broke his collarbone, so
            I've been moved into the lead with nine days to learn it]]. I've got the script taped to the
            bathroom mirror.
        B: From six lines to the whole thing! Are you sleeping at all?
        A: I recite it in my sleep, my husband says. He's started giving me notes.
        """,
        [
            "S~: What local theatre group did {A} sign up for, and what part did they get at first?",
            "S~: Why did {A} end up as the main character? @1",
            "M: How did {A}'s role in {play} change between the first casting and the run? @0,1",
            "T~: What did {A} get involved in {when0}?",
            "I~: Did {A} have a big script to learn by heart in the end? @1",
        ],
        ("The costume cupboard at {hall} smells of mothballs and old hairspray.",),
        hall=HALLS,
        play=PLAYS,
    ),
    fact(
        "h7-detector",
        """
        A: Don't laugh, [[I've bought a metal detector and I spend Sunday mornings sweeping the beach at
            {beach}]]. So far I've found forty ring pulls, a toy car and a teaspoon.
        B: Are you wearing headphones and one of those floppy hats?
        A: Obviously. The hat is the most important piece of equipment.
        ---
        B: My uncle dug up a Roman coin in a ploughed field twenty years ago, and we still hear about it at every
            single Christmas dinner.
        A: That's the dream, honestly. A story for every Christmas.
        ---
        A: Best find ever, [[I dug up a gold wedding ring with initials engraved inside, and I tracked down the
            woman who lost it through a local Facebook group]]. She'd dropped it in the sand thirty years ago and
            cried down the phone.
        B: That's the loveliest thing I've heard all year. Did she give you a reward?
        A: A Victoria sponge and a hug. Better than gold.
        """,
        [
            "S~: What gadget does {A} take out on Sunday mornings?",
            "S~: What was the most precious thing {A} turned up in the sand? @1",
            "M: What new pastime did {A} take up and what came of it for a stranger? @0,1",
            "T: What did {A} tell you {when2} about the beach? @1",
            "I~: Does {A} still have the gold ring? @1",
        ],
        ("The car park at {beach} has started charging eight pounds for the day, which is robbery.",),
        beach=BEACHES,
    ),
    fact(
        "h7-aquarium",
        """
        A: We have new housemates, very quiet ones, [[I've set up a sixty-litre tropical tank in the living room
            with a shoal of {fish}]]. Watching them is better than anything on the telly.
        B: Oh, that's so calming. Did you have to wait before putting them in?
        A: Three weeks of testing the water with little strips like a chemist. Then the shop man finally let me.
        ---
        B: The kids next door won a goldfish at the fair years ago and it's now eleven and the size of a small
            trout. They're a bit scared of it.
        A: That's not a goldfish any more, that's a lodger.
        ---
        A: Grim news from the tank, [[the heater packed in during that cold snap and every one of the fish died
            overnight]]. I buried them under the rosemary and felt ridiculous and very sad.
        B: Oh no, I'm so sorry. Are you going to try again?
        A: I'm thinking about it. Something tougher this time.
        ---
        A: The tank is back, [[it's full of red cherry shrimp and moss now, and they're happy at room temperature
            so there's no heater]]. They hoover up every crumb and they're bright red, like tiny fire engines.
        B: Shrimp! How many are there?
        A: I started with twelve and I've stopped counting, they have babies constantly.
        """,
        [
            "S~: What happened to the fish in {A}'s aquarium? @1",
            "S~: What lives in {A}'s tank these days? @2",
            "M: Why did {A} change what lives in the aquarium? @1,2",
            "T: What went wrong with the tank {when2}? @1",
            "I~: Does {A}'s tank need warming up now? @2",
        ],
        ("The pet shop on the ring road has a giant catfish in the window that stares at everyone.",),
        fish=FISH,
    ),
    fact(
        "h7-archery",
        """
        A: I've gone full Robin Hood, [[I did a six-week beginners' archery course at {range} and then joined the
            club]]. I've got a bruise the size of a plum on my forearm where the string slaps it.
        B: Do you shoot at those big round straw targets?
        A: Straw, very forgiving. I've hit the grass behind it more than the target, though.
        ---
        B: A lad on our street has got into axe throwing on Friday nights, which sounds like a terrible thing to
            mix with lager.
        A: There's a reason we're not allowed a drink until the arrows are put away.
        ---
        A: A tiny bit of glory, [[I came third in the county novice tournament and got a bronze medal]]. Third
            out of eleven, but a medal is a medal and it's on the fridge.
        B: Congratulations! Was it nerve-racking?
        A: My hands shook so much on the first end that I missed the whole thing. Then I calmed down.
        """,
        [
            "S~: What did {A} learn to do at {range}?",
            "S~: How did {A} get on at the county contest? @1",
            "M: What sport did {A} take up and how did the first competition go? @0,1",
            "T: What did {A} tell you {when2} about archery? @1",
            "I~: Did {A} win the county event outright? @1",
        ],
        ("They're mowing the field at {range} again, so it's all rolled grass and hay fever.",),
        range=RANGES,
    ),
    fact(
        "h7-open-mic",
        """
        A: I need to tell someone and then never speak of it, [[I did five minutes of stand-up at the open mic
            night at {venue} and nobody laughed, not once]]. A man in the front row ate crisps the whole way
            through like he was watching a nature programme.
        B: Oh no. But you got up there, that's the brave part!
        A: My knees were actually knocking. I didn't know that was a real thing.
        ---
        B: We went to see a comedian at the theatre last month and he picked on my husband all night for wearing
            sandals in October.
        A: To be fair to the comedian, that is material.
        ---
        A: Comedy update, please be proud, [[I've been booked for a proper paid ten-minute slot at the comedy
            festival in the autumn]]. Forty pounds and a free drink, so I'm basically a professional.
        B: From crisps man to a festival! What changed?
        A: I went back every fortnight and kept the jokes that worked. About three of them, so far.
        """,
        [
            "S~: What did {A} try at {venue}?",
            "S~: How did the crowd take {A}'s first go at comedy?",
            "S~: What gig has {A} landed since then? @1",
            "M: How did {A}'s comedy go from the first try to later on? @0,1",
            "T: What did {A} tell you {when0} about the open mic?",
            "I~: Is anyone paying {A} to tell jokes now? @1",
        ],
        ("{venue} has a new landlord who's put fairy lights on absolutely everything.",),
        venue=VENUES,
    ),
    fact(
        "h7-migraine",
        """
        A: Sorry I went quiet, [[I've been getting migraines two or three times a week]], the kind where I have to
            lie in a dark room with a cold flannel and the curtains shut. [[The GP wants me to keep a diary of
            everything I eat and drink]], so I'm writing down every biscuit like a detective.
        B: Oh, that sounds miserable. Do the tablets help?
        A: A bit, if I catch it early. If I don't, the day's gone.
        ---
        B: My manager gets headaches from the strip lights in the office and now wears sunglasses at her desk,
            which makes her look like a film star hiding from the press.
        A: I'd honestly try that if I thought it would work.
        ---
        A: Head news, good news, [[the diary showed it was red wine and skipping breakfast, so I've stopped both
            and I've had one migraine in two months]]. Porridge every morning now, which nobody saw coming.
        B: That's brilliant. Do you miss the wine?
        A: At weddings, yes. The rest of the time I'm too smug about not having a headache.
        """,
        [
            "S~: What health trouble has {A} been having?",
            "S~: What did the doctor ask {A} to do about the headaches? @1",
            "S~: What turned out to set off {A}'s bad heads? @2",
            "M: What was wrong with {A} and what helped in the end? @0,2",
            "T: What did {A} tell you {when2} about the migraines? @2",
            "I~: Would a bottle of claret be a good present for {A} at the moment? @2",
        ],
        ("The GP surgery has a new phone system and I was number nineteen in the queue.",),
    ),
    fact(
        "h7-ankle",
        """
        A: I'm typing this from the sofa with my leg up on three cushions, [[I slipped on black ice outside
            {shop} and broke my ankle in two places]]. I'm in one of those huge moon boots for six weeks.
        B: Oh no! Can you get around at all?
        A: On crutches, badly. I've fallen up the stairs twice, which I didn't know was possible.
        ---
        B: Our road hasn't been gritted once all winter. The postman does his round like he's on an ice rink,
            arms out.
        A: Tell him to be careful, I'm the cautionary tale.
        ---
        A: Leg news, [[the boot is off and the physio has signed me off, so on Sunday I walked the whole five miles
            of the coast path]]. Slowly, with a lot of sitting on benches, but all of it.
        B: That's amazing. Does it still ache?
        A: When it rains, like an old sailor. I quite like having a weather ankle.
        """,
        [
            "S~: How did {A} hurt their foot?",
            "S: Where did {A} slip?",
            "M~: How has {A}'s leg healed since the fall? @0,1",
            "T: What accident did {A} have {when0}?",
            "I~: Is {A} up to long hikes again? @1",
        ],
        ("They've finally put a grit bin outside {shop}, about three months too late.",),
        shop=SHOPS,
    ),
    fact(
        "h7-heating",
        """
        A: We've got no heating, [[the boiler died in the middle of January and the engineer says it's too old to
            be worth mending]]. We're living off two little electric heaters and a hot water bottle each.
        B: In January! You poor things. Are you sleeping in hats?
        A: Hats, socks and the dog. The dog has never been so popular.
        ---
        B: My dad refuses to put his radiators on before November, whatever the weather, he just adds a jumper
            and glares at the thermostat.
        A: He'd fit right in at ours at the moment.
        ---
        A: We're warm again, [[we didn't get another boiler in the end, we had a heat pump put in with the
            government grant]]. It sits outside the back door humming like a big fridge and the house stays at
            twenty degrees all day.
        B: Oh, fancy. Is it expensive to run?
        A: Ask me after the first bill. So far it's just lovely.
        """,
        [
            "S~: What broke at {A}'s house in the winter?",
            "S~: What keeps {A}'s home warm these days? @1",
            "M: What happened to {A}'s heating and what replaced it? @0,1",
            "T: What went wrong at {A}'s place {when0}?",
            "I~: Does {A} still have a gas boiler? @1",
        ],
        ("The man who read our meter said half the street has mould behind the wardrobes.",),
    ),
    fact(
        "h7-paramedic",
        """
        A: Huge life change, are you sitting down? [[I've handed in my notice at {firm}, I'm leaving accountancy
            to train as a paramedic]]. Three years of study at forty-one. I might be mad.
        B: That's incredible! What made you decide?
        A: I did a first aid course for work and it was the only day in fifteen years I didn't look at the
            clock.
        ---
        B: My friend's a nurse in A and E, and she swears the full moon thing is real, everyone goes a bit strange
            and turns up with something stuck somewhere.
        A: I'm getting warned about that a lot.
        ---
        A: My first placement shift, [[twelve hours on an ambulance, and we helped the fire crew get a teenager out
            of a car that had rolled into a ditch]]. I held his hand all the way to the hospital. He's going to be
            fine, his mum rang the station to say so.
        B: Oh my goodness. On your first day!
        A: I didn't stop shaking until the next morning. Best day of my life, I think.
        """,
        [
            "S~: What new career is {A} retraining for?",
            "S~: What happened on {A}'s first day out with the crew? @1",
            "M: What job did {A} leave, and what has the new training been like so far? @0,1",
            "T: What big decision did {A} tell you about {when0}?",
            "I~: Is {A} still doing people's tax returns for a living?",
        ],
        ("Someone from {firm} sent round a leaving card and I swear they misspelled my name.",),
        firm=FIRMS,
    ),
    fact(
        "h7-cottage",
        """
        A: It's been a strange week, [[my great-aunt {aunt} died and left me her little stone cottage in
            {village}]]. I only met her four times. Apparently I fixed her radio once when I was ten and she
            never forgot it.
        B: Oh, that's so moving. What's the cottage like?
        A: Tiny, damp, a view that makes you forget the damp. And about nine hundred ornaments.
        ---
        B: My grandparents' house was sold after they passed, and my mum still drives past it now and then just
            to look at the roses.
        A: I get that. Houses hold on to people.
        ---
        A: Cottage decision made, [[we've redone the kitchen and it's a holiday let now, booked up most weekends
            through the summer]]. I kept one shelf of her ornaments, the rest went to the charity shop.
        B: That sounds like the right thing. Does it make money?
        A: It pays for itself and the new roof, and people leave lovely notes in the visitors' book.
        """,
        [
            "S~: What did {A} inherit from a relative?",
            "S~: What is {A} doing with the place now? @1",
            "M: How did {A} come to own the cottage, and what is it used for now? @0,1",
            "T: What family news did {A} share {when0}?",
            "I~: Is {A} living in {village} these days? @1",
        ],
        ("Great-aunt {aunt} used to send birthday cards with a ten-pound note and a pressed flower inside.",),
        aunt=AUNTS,
        village=VILLAGES,
    ),
    fact(
        "h7-citizenship",
        """
        A: Exam nerves at my age, honestly, but [[I passed the Life in the UK test for my citizenship
            application]]. Fourteen years here since I left {homeland} and I finally got round to it.
            Twenty-four questions about kings and battles, and I got one wrong, about Scottish bank notes.
        B: Congratulations! So what's the next step?
        A: Forms, fingerprints, a fee that made me gasp, and waiting.
        ---
        B: I did one of those practice tests online after you told me, and I failed it, and I was born here.
        A: That's the funniest thing you've ever told me.
        ---
        A: It's official, [[I had my ceremony at the town hall, swore the oath and got a certificate and a free
            pen]]. The kids waved little flags and my mum watched on a video call from {homeland} and cried.
        B: Oh, that's wonderful. How does it feel?
        A: Exactly the same, but with a certificate. And a pen.
        """,
        [
            "S~: What exam did {A} get through?",
            "S: Where was {A}'s ceremony? @1",
            "M: What steps did {A} go through to become a citizen? @0,1",
            "T: What happened for {A} {when2}? @1",
            "I~: Is {A} a British national now? @1",
        ],
        ("Mum keeps sending me photos of mangoes from {homeland} to make me jealous.",),
        homeland=HOMELANDS,
    ),
    fact(
        "h7-dna",
        """
        A: You will not believe this, [[I did one of those DNA kits for fun and it matched me with a half-brother
            called {half} who lives in {nz_town}, New Zealand]]. My dad has some explaining to do.
        B: Oh my word. Have you spoken to your dad?
        A: He went very pale and said it was before he met Mum, which is technically true.
        ---
        B: My DNA test said I'm four percent Scandinavian, and now my brother calls himself a Viking and has
            grown a beard about it.
        A: Four percent is a very small Viking.
        ---
        A: He's been and gone, [[{half} flew over and stayed with us for a fortnight]], and he has exactly my
            laugh, the snorting one. We stayed up every night going through old photos.
        B: That's so lovely. How did your dad handle it?
        A: They went to the pub together on the last night and came back singing.
        """,
        [
            "S~: What did {A}'s genetic test turn up?",
            "S~: Has {A} met the new relative in person? @1",
            "M: How did {A} find {half}, and what happened after that? @0,1",
            "T: What did {A} tell you {when2} about {half}? @1",
            "I~: Do {A} and {half} have the same father?",
        ],
        ("{half} sends a photo of a sheep every morning, and I've started sending one back.",),
        half=HALF_BROTHERS,
        nz_town=NZ_TOWNS,
    ),
    fact(
        "h7-bells",
        """
        A: I've found my people, [[I've joined the bell ringers at {church}, practice is Wednesday evenings up
            ninety spiral steps]]. The ropes have fluffy bits called sallies and if you let go at the wrong
            moment it whips up to the ceiling.
        B: Is it loud up there?
        A: The bells are a floor above us, so it's more of a shudder. You feel it in your teeth.
        ---
        B: The church near us has stopped ringing real bells, they play a recording on a loudspeaker instead,
            which feels like cheating.
        A: That's heartbreaking. Tell them we'll lend them a band.
        ---
        A: A real milestone, [[I rang for my first wedding on Saturday, and the bride's grandad gave us twenty quid
            for the pub]]. I didn't muck it up once. Well, once, but nobody noticed.
        B: Oh, lovely! Did you see the couple?
        A: Only from the tower window. She had a dress with a train the length of the path.
        """,
        [
            "S~: What does {A} do on Wednesday nights?",
            "S: At which church does {A} ring?",
            "S~: What was the first proper occasion {A} rang for? @1",
            "T~: What did {A} tell you {when2} about the tower? @1",
            "I~: Does {A} have to climb a lot of stairs every week?",
        ],
        ("The vicar at {church} wants to hold a fundraiser for new ropes.",),
        church=CHURCHES,
    ),
    fact(
        "h7-fencing",
        """
        A: New hobby, and it's a good one, [[I've started fencing on Monday nights at the university sports hall,
            with a foil]]. The white suit makes me look like an astronaut going to a wedding.
        B: Like the Olympics? With the wires?
        A: With the wires and the beeping. I've been beeped a lot. Mostly on the chest.
        ---
        B: My niece does karate now and has started bowing to the fridge every time she opens it.
        A: Respect for the fridge, I like that.
        ---
        A: Sword news, [[I've moved from foil to sabre, because you can hit anywhere above the waist and it's so
            much faster]]. The bouts last about four seconds and then everyone shouts.
        B: Sounds chaotic.
        A: It is, and it suits me. The foil was too polite.
        """,
        [
            "S~: What sport involving blades did {A} take up?",
            "S~: Which weapon does {A} use now? @1",
            "M: What weapon did {A} start with and what do they fence with now? @0,1",
            "T: What did {A} tell you {when0} about Monday nights?",
            "I~: Does {A} still compete with a foil? @1",
        ],
        ("The sports hall car park is full on Mondays because of the five-a-side lot.",),
    ),
    fact(
        "h7-canoe",
        """
        A: The garage is out of bounds now, [[I'm building a wooden canoe from a kit, strip by strip of cedar]].
            The instructions say two hundred hours. I'm on hour twelve and I've glued my sleeve to it twice.
        B: A proper canoe? That you'll actually sit in?
        A: That's the plan. My family is already refusing to get in it.
        ---
        B: My brother-in-law bought an inflatable paddleboard and has fallen off it in every lake in Cumbria.
            He's very proud of that.
        A: Inflatable is cheating. Mine has to float on skill.
        ---
        A: Launch day was a disaster, [[we took it to the reservoir and it leaked through a seam, so I paddled
            back sitting in a puddle]]. My neighbour filmed the whole thing and it's on the street WhatsApp.
        B: Oh no! Is it ruined?
        A: Just humbled. Like me.
        ---
        A: Redemption, [[I resealed every seam, she floats properly now and I've named her {boat}]]. We did two
            laps of the reservoir on Sunday and I stayed completely dry.
        B: That's brilliant! Are the family getting in now?
        A: My daughter did. My husband is waiting for more evidence.
        """,
        [
            "S~: What is {A} making in the garage?",
            "S~: What went wrong the first time the boat went in the water? @1",
            "S: What did {A} name the canoe? @2",
            "M: How has {A}'s canoe done from its first launch to now? @1,2",
            "T: What happened at the reservoir {when2}? @1",
            "I~: Does {A}'s boat keep the water out these days? @2",
        ],
        ("I've got sawdust in places sawdust shouldn't be able to get.",),
        boat=BOATS,
    ),
    fact(
        "h7-coffee",
        """
        A: Day nine of being a monster, [[I've given up coffee completely, because my heart kept racing in
            meetings]]. The headache for the first three days felt like a tiny builder inside my skull.
        B: Completely? Not even one in the morning?
        A: Not even one. I walk past the café on the corner with my eyes shut.
        ---
        B: Our office has got a new bean-to-cup machine and half the floor hasn't slept since. There's a queue at
            three every afternoon.
        A: Stay strong. It's a cult.
        ---
        A: Drink update, [[I'm on green tea now, two cups in the morning, and I've stopped waking up at four]].
            It tastes a bit like a lawn, but a nice lawn.
        B: Ha! And the racing heart?
        A: Gone. Meetings are still boring, though. That wasn't the coffee.
        """,
        [
            "S~: Why did {A} quit caffeine?",
            "S~: What does {A} have in the mornings instead these days? @1",
            "M: What did {A} change about what they drink, and how has it helped? @0,1",
            "T: What did {A} give up {when0}?",
            "I~: Would {A} want an espresso after dinner? @1",
        ],
        ("The café on the corner has started writing everyone's name wrong on purpose, I'm sure of it.",),
    ),
    fact(
        "h7-gameshow",
        """
        A: This is a secret, [[I've been picked to go on the telly quiz {show}, filming is in Salford next
            month]]. I had to do an audition in a hotel conference room with a buzzer made of cardboard.
        B: No way! Are you allowed to tell me how it goes?
        A: Not until it's aired. I've signed something very serious.
        ---
        B: My auntie was in the audience of a chat show once, and if you pause it at the right moment you can see
            the back of her head for two seconds.
        A: Fame.
        ---
        A: It went out last night so I can finally say, [[I won four thousand pounds, and it's paying for my mum
            to fly out and see her sister in Australia]]. I nearly blew it on a question about Shakespeare.
        B: Four thousand! I'm going to watch it tonight.
        A: Please ignore my hair. The make-up lady gave up.
        """,
        [
            "S~: What programme is {A} going to be on?",
            "S~: How much did {A} take home from the show? @1",
            "M: What show did {A} go on and where is the prize money going? @0,1",
            "T: What did {A} tell you {when2} about {show}? @1",
            "I~: Did {A} leave the quiz empty-handed? @1",
        ],
        ("I've been watching old episodes of {show} to practise and shouting at the screen.",),
        show=SHOWS,
    ),
    fact(
        "h7-gap-year",
        """
        A: {son} finished his exams at last, [[and he's off on a gap year, working on a sheep farm in
            Tasmania]]. I've bought him a waterproof coat, which he says he doesn't need and which he will need.
        B: Tasmania! That's about as far as he could go.
        A: He checked. It was on purpose, I think.
        ---
        B: My nephew went travelling for a year and came back with dreadlocks and very strong opinions about
            coffee.
        A: I'll be happy if he comes back with all his fingers.
        ---
        A: {son} rang at two in the morning our time, [[he's applied to study veterinary medicine at Edinburgh,
            because helping with the lambing made up his mind]]. He was covered in something and sounded so
            happy.
        B: Oh, that's wonderful. Did he ever want to before?
        A: Never. He wanted to do business studies. One lamb changed everything.
        """,
        [
            "S~: What is {A}'s lad doing with his year off?",
            "S~: What course does {son} want to do at university now? @1",
            "M: What did {son} do after school, and how has it shaped his plans? @0,1",
            "T: What news did {A} pass on from {son} {when2}? @1",
            "I~: Is {son} hoping to become an animal doctor? @1",
        ],
        ("{son} sends photos of kangaroos and no words at all.",),
        son=SONS,
    ),
    fact(
        "h7-pacemaker",
        """
        A: We had a frightening weekend, [[Dad collapsed on the green at his bowls club and the hospital says his
            heartbeat keeps dropping far too low]]. He's furious, mostly because he was winning.
        B: Oh, that's so scary. Is he still in?
        A: For a few days. They've stuck about twenty stickers on him and he keeps pulling them off.
        ---
        B: My mother-in-law has one of those smartwatches that measures her pulse, and she sends us the graphs
            every evening, unprompted.
        A: That's a lot of graphs.
        ---
        A: Dad update, all good, [[he had a pacemaker fitted on Tuesday and he's already back playing bowls]].
            The nurse told him to take it easy for six weeks. He heard three.
        B: That's such a relief. Does he feel different?
        A: He says he can walk up the hill without stopping now, and he's insufferable about it.
        """,
        [
            "S~: What happened to {A}'s father at the bowling club?",
            "S~: What did the doctors put in {A}'s dad's chest? @1",
            "M: What was wrong with {A}'s dad's heart and how was it sorted? @0,1",
            "T: What scare did {A} tell you about {when0}?",
            "I~: Is {A}'s father well enough for his usual game? @1",
        ],
        ("Dad's bowls club has a new rule that everyone wears white, and he's livid about it.",),
    ),
    fact(
        "h7-sign",
        """
        A: I'm back at school in the evenings, [[I've started a British Sign Language class because {colleague},
            who joined our team in the spring, is deaf]]. My fingerspelling is so slow she waits politely like
            I'm a loading bar.
        B: That's so thoughtful. Is it hard?
        A: It's all in the face as well as the hands. I keep frowning at the wrong moments.
        ---
        B: My gran lip-reads brilliantly, but only if you stop mumbling into your tea, which my brother never
            does.
        A: Teach him to put the tea down.
        ---
        A: A proud one, [[I passed level one, and at {colleague}'s birthday lunch I signed the whole toast]]. She
            laughed at the right bit, so I must have got it right.
        B: Oh, that's gorgeous. Did the rest of the team understand?
        A: Not a word. That was half the fun.
        """,
        [
            "S~: What evening course has {A} signed up to?",
            "S~: How did {A} use the new skill at {colleague}'s celebration? @1",
            "M: Why did {A} start BSL and how far have they got? @0,1",
            "T: What did {A} tell you {when2} about the classes? @1",
            "I~: Can {A}'s workmate {colleague} hear what's said in meetings?",
        ],
        ("{colleague} has got the whole office hooked on her flapjacks.",),
        colleague=COLLEAGUES,
    ),
    fact(
        "h7-house-swap",
        """
        A: We've arranged something a bit mad, [[we're swapping houses for August with a family from {swap_city},
            they get our place and we get theirs]]. I've been cleaning skirting boards I didn't know we had.
        B: A house swap! Do you know them?
        A: Only from video calls. They seem lovely. They asked very serious questions about our bins.
        ---
        B: My friend rented a flat abroad once and the owner had stuck a note on every cupboard saying DO NOT
            USE, so they lived out of their suitcase.
        A: That's the opposite of what we're hoping for.
        ---
        A: Swap report, [[it went so well that we've agreed to do it again next Easter]]. They left us a bottle of
            homemade plum brandy and a drawing from their youngest of our cat.
        B: That's so nice. Was their place good?
        A: Beautiful, and their neighbours brought us soup on the first night.
        """,
        [
            "S~: How is {A} finding somewhere to stay for the summer holiday?",
            "S: Where is the family {A} is swapping homes with from?",
            "S~: How did the exchange go in the end? @1",
            "T: What did {A} tell you {when0} about August?",
            "I~: Did {A} pay for a hotel in {swap_city}?",
        ],
        ("I've been trying to learn some words for {swap_city} and I can say thank you and sorry.",),
        swap_city=SWAP_CITIES,
    ),
    fact(
        "h7-guide-pup",
        """
        A: We've got a new houseguest, [[we're puppy walkers for the guide dog charity, so a black Labrador pup
            called {pup} lives with us for a year]]. He's not allowed on the sofa, which he knows, and ignores.
        B: Oh, I'd never give him back.
        A: That's the hard part, everyone says. We're not allowed to get attached, and we are.
        ---
        B: My neighbour's spaniel has learnt to open the fridge, so now they keep it shut with a bungee cord.
        A: Clever dog, terrible decisions.
        ---
        A: Proud and sad, [[{pup} passed his training and he's been matched with a blind piano tuner in Leeds]].
            We cried all the way home in the car. They sent us a photo of him in his harness.
        B: Oh, that's so lovely and so sad. Will you do it again?
        A: We've already said yes to the next one. We're suckers.
        """,
        [
            "S~: Why is there a young dog living at {A}'s home?",
            "S~: What has become of {pup} since he left {A}? @1",
            "M: Why did {pup} come to live with {A}, and where did he end up? @0,1",
            "T: What did {A} tell you {when2} about {pup}? @1",
            "I~: Does {pup} still live with {A}? @1",
        ],
        ("{pup} chewed the corner off a library book and I had to pay for it.",),
        pup=PUPS,
    ),
    fact(
        "h7-derby",
        """
        A: You'll laugh, [[I've joined a roller derby team, and my skate name is {derby_name}]]. I'm still
            learning how to fall over properly, which is most of the training.
        B: Roller derby! Isn't that the one where people barge each other?
        A: Legally barge. There are rules. Mostly about where you're allowed to barge.
        ---
        B: I went roller skating at a seventies disco night and held on to the wall for two solid hours.
        A: The wall is a great partner. Never lets you down.
        ---
        A: Derby news, [[I passed my minimum skills test, so I'm cleared for real bouts, and the first one is
            against a team from Sheffield]]. I had to do twenty-seven laps in five minutes and I nearly cried.
        B: Oh, you're actually playing! Can I come and watch?
        A: Please. Bring a sign with my name on it.
        """,
        [
            "S~: What team sport on wheels has {A} got into?",
            "S~: What did {A} have to pass before playing matches? @1",
            "M: What did {A} take up and what milestone have they reached? @0,1",
            "T: What did {A} tell you {when2} about the skating? @1",
            "I~: Is {A} allowed to compete yet? @1",
        ],
        ("My knee pads smell so bad they live on the balcony now.",),
        derby_name=DERBY_NAMES,
    ),
    fact(
        "h7-cruise",
        """
        A: Mum and Dad have gone wild, [[they've booked their first ever cruise for their fortieth anniversary,
            two weeks round the Greek islands]]. Mum's bought four new swimming costumes.
        B: That's so sweet. Has your dad ever been on a ship?
        A: Only the ferry to Calais, and he was sick before it left the harbour.
        ---
        B: A woman at my work went on a cruise and said it's basically a floating buffet with a theatre bolted on.
        A: That sounds exactly like my parents' idea of heaven.
        ---
        A: Poor Mum, [[she caught a sickness bug on day three and spent most of the cruise shut in the cabin]].
            Dad went to every show without her and sent her the photos, which did not go down well.
        B: Oh no! After all that planning.
        A: She saw Mykonos from the porthole.
        ---
        A: They've decided, [[no more ships, they've booked a week in a log cabin in the Forest of Dean
            instead]]. Dad says the only thing that moves in a forest is the squirrels.
        B: Much more their speed.
        A: There's a hot tub. Mum says that's the only water she's getting into from now on.
        """,
        [
            "S~: What holiday did {A}'s mum and dad book for their anniversary?",
            "S~: What spoiled the trip for {A}'s mother? @1",
            "S~: What kind of break are {A}'s parents planning next? @2",
            "M: How did {A}'s parents' cruise go and what are they doing next? @1,2",
            "T: What did {A} tell you {when2} about their parents' trip? @1",
            "I~: Are {A}'s parents keen to get on another ocean liner? @2",
        ],
        ("Dad has started a scrapbook of holiday brochures and none of them are for the same place.",),
    ),
]

GREETINGS = (
    ("{B}, are you free? I've put the kettle on specially.", "For you, {A}, always. Pour me one in spirit."),
    ("Hello stranger! {B}, where have you been?", "Drowning, {A}, but I've surfaced. How are you doing?"),
    ("{B}, quick, tell me something normal, my day's been bonkers.", "Normal, {A}? I had beans on toast. Your turn."),
    ("Afternoon {B}! I'm hiding in the car before I go in.", "Ha, I know that feeling, {A}. What's new?"),
    ("Is this a good time, {B}? The kids are finally asleep.", "Perfect time, {A}. I'm on the sofa with crisps."),
)
CLOSINGS = (
    ("Oh, the dog's staring at me for his walk. Bye {B}!", "Go on, he's waited long enough. Bye {A}!"),
    ("I'm falling asleep on my phone, {B}. Night night.", "Night {A}, sweet dreams."),
    ("I've got to dash for the bus, {B}, love you.", "Run, {A}! Text me when you're home."),
    ("Right, back to the grindstone. Thanks for the chat, {B}.", "Any time, {A}. Same again soon."),
)
TALK = (
    (
        "Have you tried the new Turkish place on the corner?",
        "Twice this week. The man at the counter knows my order now and I think he judges me for it.",
    ),
    (
        "Did the hairdresser manage to squeeze you in?",
        "She did, and she took off far more than I asked, so I've been wearing a beanie indoors.",
    ),
    (
        "What are you watching at the moment?",
        "A Danish crime series where everyone whispers and it's always raining. I'm completely hooked.",
    ),
    (
        "Did your mum like the birthday flowers?",
        "She loved them, then told me they were the wrong colour, which is how I know she really loved them.",
    ),
    (
        "Are you managing to sleep in this heat?",
        "Barely. I've got a fan pointed at my face all night and I dream about icebergs.",
    ),
    (
        "Did you end up buying that coat?",
        "In the sale, yes, and then it turned warm the very next day, so it's hanging there looking at me.",
    ),
    (
        "Is your street still dug up?",
        "They filled in one hole and dug two more, it's like a board game nobody asked to play.",
    ),
    ("Are you going to the school reunion?", "I've said maybe, which we both know means absolutely not."),
    (
        "How was your cousin's barbecue?",
        "Lovely, once someone who wasn't my cousin took over the grill. The first round of sausages was charcoal.",
    ),
    (
        "What's for tea tonight?",
        "Fish finger sandwiches, because I'm a grown adult and I make my own decisions.",
    ),
    (
        "Have you booked anything for half term?",
        "Not yet. I keep opening the website and shutting it again in fear when I see the prices.",
    ),
    (
        "Did you try that soup recipe I sent?",
        "I did. It came out the colour of a pavement, but it tasted fine, so I'm calling it a win.",
    ),
)
REACTIONS = (
    "Oh, you poor thing.",
    "Ha, I love that for you.",
    "Good grief.",
    "That's so lovely.",
    "Honestly, what a week.",
    "Aw, stop it.",
    "Well, that's life.",
)
SENTENCES = (
    "Sorry, I've just looked up and realised I've been waffling.",
    "Next door's toddler has learned to shout hello over the fence at six in the morning.",
    "Everything this week has needed two trips, even the bins.",
    "I keep meaning to post you that book I promised, it's still by the front door.",
    "The kitchen tap has started dripping in a rhythm and now I can't unhear it.",
    "I had a dream I'd turned up at work in my slippers and nobody said anything.",
    "Work is busy but the good kind of busy, mostly.",
    "The little greengrocer by the station has shut and I'm in mourning.",
    "There's a pigeon that sits on our windowsill and stares in like a landlord.",
    "I had cereal for dinner last night and I'd like it on the record that it was great.",
    "It's been so windy the recycling has been visiting the neighbours.",
    "I wrote a list of things to do this weekend and then lost the list.",
    "My phone keeps offering me memories from holidays I'd rather forget.",
    "The supermarket moved everything round again and I wandered the aisles for an hour.",
    "I've been trying to drink more water and spending all day running to the loo.",
    "Anyway, enough about me, what's going on with you?",
    "We really need to get a date in the diary and actually see each other.",
    "I got soaked on the way home and my shoes are still squelching.",
    "The lamp post outside has been flickering for a week like a horror film.",
    "I've started listening to a podcast about shipwrecks, don't ask me why.",
    "My brother sent me a voice note that was three minutes of him eating an apple.",
    "The radiator in the bedroom clanks like someone's trying to get out.",
    "I bought a fancy notebook to get organised and I've only written on the first page.",
    "It's so nice to have a proper natter, I've missed it.",
)
