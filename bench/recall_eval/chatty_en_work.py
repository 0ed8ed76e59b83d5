"""The chatty evaluation's English facts about work, study and pastimes (the form chatty_en.py describes)."""

from __future__ import annotations

from recall_eval.chatty_talk import fact

COMPANIES = ("Lumenfield", "Ardent Robotics", "Kestrel Health", "Bluepine", "Oakridge Media", "Vantage Freight")

FACTS = [
    fact(
        "workmates-party",
        """
        B: Happy belated! Did you do anything for your birthday?
        A: I thought nobody at work knew, but my colleagues [[hid in the break room with a cake shaped like a
            spreadsheet]]. I actually teared up a little, don't tell anyone.
        B: A spreadsheet cake is peak office humour, I love it.
        """,
        [
            "S~: What did {A}'s workmates do for their birthday?",
            "I: Does {A} get along with the people at their job?",
            "T: How did {A} celebrate their birthday {when0}?",
        ],
        (
            "Half my colleagues are on holiday, the office is a ghost town.",
            "We had a team lunch and nobody could agree on where to eat.",
            "Somebody keeps stealing my yoghurt from the office fridge.",
        ),
    ),
    fact(
        "postgres-move",
        """
        A: Sorry I vanished, we spent the whole weekend moving the app off MySQL onto PostgreSQL. [[The cutover took
            nine hours]] instead of the two we promised.
        B: Nine! What went wrong?
        A: [[The id sequences didn't carry over]], so every insert after the copy failed until we reset them by
            hand. Lesson learned.
        """,
        [
            "S~: How long did the postgres cutover take for {A}'s team?",
            "S: Why were inserts failing after {A}'s database copy? @1",
            "T: What was {A} busy with at work {when0}? @0",
            "I: Does {A} probably work in software?",
        ],
        (
            "Our database backups finally run every night, it only took a year.",
            "I spent the afternoon in meetings about which database to pick for the new service.",
            "The migration scripts are a mess, nobody wants to touch them.",
        ),
    ),
    fact(
        "k8s-evictions",
        """
        A: Pager went off at three in the morning, the Kubernetes cluster kept evicting pods for no reason.
        B: That sounds like a nightmare. Did you find it?
        A: Eventually, [[the nodes were running out of disk because old container images piled up]]. We added a
            cleanup job and went back to bed at six.
        """,
        [
            "S~: Why were pods being evicted from the k8s cluster {A} looks after?",
            "T: What kept {A} up at night {when0}?",
        ],
        (
            "We're moving another service onto the cluster next quarter, wish me luck.",
            "Being on call this week means I sleep with my phone on the pillow.",
        ),
    ),
    fact(
        "js-class",
        """
        A: I said yes to something silly: [[teaching a JavaScript class for teenagers at the library on Saturdays]].
        B: That's not silly, that's lovely. Are they into it?
        A: Half of them are, the other half are on their phones, which is fair.
        ---
        A: Proud teacher moment, [[one of my students built a snake game that runs in the browser]], with sound
            effects and everything.
        B: Oh that's adorable. Did you frame it?
        """,
        [
            "S~: What js course does {A} teach, and where?",
            "S: What did one of {A}'s students make? @1",
            "M: What does {A} volunteer to teach, and what did a student of that class build? @0,1",
            "I: Is {A} likely good with computers?",
        ],
        (
            "The library is renovating the reading room, it smells of fresh paint.",
            "Teenagers today type faster than I think.",
        ),
    ),
    fact(
        "film-club",
        """
        A: Guess who started a film club? Me. [[We meet on the first Friday of the month in Mel's garage]] and watch
            something old on a bedsheet.
        B: A bedsheet cinema! What did you show first?
        A: [[A silent comedy from 1926]], with my cousin playing piano badly on purpose.
        """,
        [
            "S~: When does {A}'s movie club get together?",
            "S~: What movie did {A}'s club screen first? @1",
            "I: Is {A} interested in old cinema? @0",
        ],
        (
            "We watched a terrible action film last night and loved every minute.",
            "Cinema tickets cost as much as a dinner now.",
        ),
    ),
    fact(
        "photo-show",
        """
        A: I have news! [[Three of my photos got into the community gallery show]], the ones from the fish market at
            dawn.
        B: That's incredible, you've been shooting for what, a year?
        A: About that. The opening is next Thursday, there will be cheap wine.
        """,
        [
            "S~: How many of {A}'s pictures were picked for the exhibition?",
            "T: What good news did {A} share {when0}?",
            "I: Is {A} serious about photography?",
        ],
        (
            "My phone is full of blurry photos of my dinner.",
            "I went to a gallery opening and understood none of the art.",
        ),
    ),
    fact(
        "driving-test",
        """
        A: Guess who has a driving licence? [[I passed the driving test on my second try]]. The first time I stalled
            at a roundabout, the examiner sighed so loudly.
        B: Second time's the charm! Congratulations!
        """,
        [
            "S~: How many attempts did {A} need to pass the driving exam?",
            "T: What did {A} achieve {when0}?",
        ],
        (
            "Roundabouts still scare me, I go round twice sometimes.",
            "My cousin is learning to drive and my uncle is losing his mind.",
        ),
    ),
    fact(
        "new-job",
        """
        A: I handed in my notice today. [[I'm joining {company} as a data analyst]] next month.
        B: Whoa, finally! What tipped it?
        A: [[My current manager cancelled our one-to-one for the ninth time]]. It's a small thing but it wasn't
            small anymore.
        ---
        A: First week at {company} done. [[They gave me a desk by the window and a mentor called Bea]], who already
            fixed two of my queries.
        B: A window desk on week one, they must like you.
        """,
        [
            "S~: Where is {A}'s new job, and what role?",
            "S~: Why did {A} decide to quit? @1",
            "T: What did {A} announce {when0}?",
            "M: Which company did {A} move to, and how did the first week there go? @0,2",
        ],
        (
            "Job interviews are exhausting, I had three this week.",
            "My manager wants us all back in the office on Mondays.",
        ),
        company=COMPANIES,
    ),
    fact(
        "boss-fourday",
        """
        A: Small miracle at work, my boss [[approved four-day weeks for the whole summer]]. I plan to spend every
            Friday at the lake.
        B: Does anyone else get that? I'm applying at your place.
        """,
        [
            "S~: What did {A}'s manager agree to?",
            "I: Will {A} likely spend more time outdoors in summer?",
        ],
        (
            "My boss sends emails at eleven at night and expects answers.",
            "We have a new policy about meetings, nobody understands it.",
        ),
    ),
    fact(
        "laptop-dies",
        """
        A: My laptop died mid-presentation, just a black screen and a smell. [[I got a refurbished ThinkPad]] the
            same afternoon because I had no choice.
        B: Did you lose anything?
        A: [[Only the last two days of my thesis notes]], the rest was in the cloud.
        """,
        [
            "S~: What computer did {A} get after the old notebook broke?",
            "S: What work did {A} lose when the computer died? @1",
            "I: Is {A} a student?",
        ],
        (
            "My laptop fan sounds like a jet engine lately.",
            "I should really back things up more often.",
        ),
    ),
    fact(
        "ukulele",
        """
        A: New obsession: [[I joined a ukulele group that meets in the back room of a pub]]. Twenty grown adults
            strumming Beatles songs badly.
        B: That sounds like the most wholesome thing ever.
        ---
        A: The ukulele lot played their first gig! [[We did four songs at the care home on Mill Lane]] and one lady
            sang every word.
        B: Stop, I'm crying.
        """,
        [
            "S: What group did {A} join at a pub?",
            "S: Where did {A}'s group perform their first gig? @1",
            "I: Does {A} play a musical instrument?",
            "M: What instrument group is {A} in and where did they first play? @0,1",
        ],
        (
            "My neighbour practises guitar at the worst possible times.",
            "Live music in pubs is my favourite thing about this town.",
        ),
    ),
    fact(
        "food-bank",
        """
        B: You're always busy on Wednesdays, what is that?
        A: Oh, [[I volunteer at the food bank on Wednesday evenings]], sorting donations. It's the calmest part of
            my week, weirdly.
        """,
        [
            "S: What does {A} do on Wednesday evenings?",
            "I: Is {A} involved in community service?",
        ],
        (
            "Our street is collecting coats for the winter drive.",
            "I keep meaning to give blood but I faint at needles.",
        ),
    ),
    fact(
        "python-script",
        """
        A: Nerd confession of the week: [[I wrote a little Python script that renames all my photos by the date they
            were taken]]. Eleven thousand files, sorted in a minute.
        B: That's the most you thing I've ever heard.
        """,
        [
            "S: What did {A}'s script do with the pictures?",
            "I: Does {A} know how to program?",
        ],
        (
            "My photo folder is chaos, thousands of files called IMG something.",
            "I tried one of those coding tutorials and gave up after the first video.",
        ),
    ),
    fact(
        "typescript-rewrite",
        """
        A: The team voted and [[we're rewriting the whole frontend in TypeScript]], which means my next three months
            are decided.
        B: Is that a good thing or a bad thing?
        A: Good, mostly. [[Half our bugs last year were undefined values sneaking through]], the types should catch
            those.
        """,
        [
            "S~: What language is {A}'s team moving the frontend to?",
            "S: Why did {A}'s team want types? @1",
        ],
        (
            "Code reviews are taking forever this month.",
            "We have a new intern who asks brilliant questions.",
        ),
    ),
    fact(
        "korean-tutor",
        """
        A: I started learning Korean, [[with a tutor called Minji on Tuesday evenings]]. I can order tea and
            apologise, which covers most of life.
        B: Why Korean?
        A: [[My partner's family is from Busan]] and I want to talk to his grandmother at the wedding.
        """,
        [
            "S~: Who teaches {A} Korean, and when are the lessons?",
            "S: Why is {A} learning Korean? @1",
            "I: Is {A} likely to travel to Korea?",
        ],
        (
            "Language apps keep sending me guilt notifications.",
            "I can only say hello and beer in most languages.",
        ),
    ),
    fact(
        "night-shift",
        """
        A: Third night in a row on the ward. [[The triage desk was chaos after a pileup on the motorway]], I didn't
            sit down for nine hours.
        B: You need a holiday more than anyone I know.
        """,
        [
            "I: What is {A}'s likely profession?",
            "S: Why was {A}'s night shift so busy?",
        ],
        (
            "Night shifts wreck my sleep for days afterwards.",
            "I drink so much coffee at work it should be illegal.",
        ),
    ),
]
