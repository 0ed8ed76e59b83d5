"""The chatty evaluation's shared parts: the fact form, and the English small talk that fills its sessions."""

from __future__ import annotations

from typing import Any


def fact(key: str, text: str, questions: list[str], echoes: tuple[str, ...], **slots: Any) -> dict[str, Any]:
    """One fact, as chatty.py reads it (the form chatty_en.py describes)."""
    return {"key": key, "text": text, "questions": questions, "echoes": echoes, "slots": slots}


GREETINGS = (
    ("Hey {B}!! You around?", "Hey {A}, yes, just made tea. What's going on?"),
    ("{B}, it's been ages, I'm so sorry, life ate me.", "Don't apologise {A}, same here. Tell me everything."),
    ("Morning {B}. Or afternoon. I've lost track.", "Ha, it's lunchtime, {A}. How are you?"),
    ("Okay {B}, I have updates.", "Ooh. Go on, {A}, I'm listening."),
    ("Hi {B}! Quick catch-up before dinner?", "Always, {A}. How's your week been?"),
)
CLOSINGS = (
    ("Right, I have to run. Bye {B}!", "Bye {A}!"),
    ("Okay, bedtime. Night {B}.", "Night {A}, sleep well."),
    ("Talk soon {B}, this was nice.", "It was! Take care, {A}."),
    ("Gotta go, the oven's beeping.", "Go go go. Speak soon {A}!"),
    ("Thanks for listening, {B}.", "Anytime {A}. Bye!"),
)
# Questions and answers about nothing in particular.
TALK = (
    ("How's the weather where you are?", "Grey and windy, the kind where your umbrella turns inside out."),
    ("Did you see anything good this week?", "A documentary about octopuses, I'm still thinking about it."),
    ("Are you sleeping any better?", "A bit. I stopped looking at my phone in bed, mostly."),
    ("What are you having for dinner?", "Leftover soup again, it gets better every day."),
    ("Any plans for the weekend?", "Sleep, laundry, maybe a walk if it stops raining."),
    ("Have you tried the new coffee place?", "Yes, the coffee is fine but the pastries are the real reason to go."),
    ("How's your sister doing?", "Good, busy, she just repainted her kitchen yellow."),
    ("Did the parcel ever arrive?", "Finally, after going to a town with the same street name."),
    ("How was the traffic today?", "Roadworks everywhere, I sat behind a bus for twenty minutes."),
    ("Are you still doing that puzzle?", "Two thousand pieces, all sky. I regret everything."),
    ("Did you get the tickets?", "Sold out in four minutes, I'm on a waiting list."),
    ("What's that noise in the background?", "The neighbours are drilling again, every single morning."),
)
REACTIONS = ("Ha, classic.", "Honestly, same.", "Oh no.", "Love that.", "Wait, really?", "Ugh, I know.", "Mood.")
# Chatty sentences that pad a turn to the length of real messages.
SENTENCES = (
    "Anyway, sorry, I'm rambling again.",
    "It has been one of those weeks where every day feels like a Monday.",
    "The heating in our building clanks all night like someone is trapped in the pipes.",
    "I keep meaning to clean the windows but then it rains and I feel justified.",
    "I had three coffees before noon, which explains the typing.",
    "My inbox has two hundred unread emails and I've decided not to look.",
    "We've been eating pasta five nights a week and I'm not ashamed.",
    "The cat from next door has started sleeping on our doormat.",
    "I found a twenty in my winter coat, best thing that happened all month.",
    "It's been raining so much the park looks like a lake.",
    "I'm trying to read more, but I fall asleep after two pages.",
    "The bus was packed this morning, I had someone's elbow in my ear.",
    "I keep thinking about that little place by the harbour we went to.",
    "My back hurts from sitting on a kitchen chair all day.",
    "Honestly I don't know where the time goes.",
    "How are things with you, by the way?",
    "Tell me something good, I need it.",
    "I owe you a proper dinner, remind me.",
    "We should do a call with everyone soon, it's been too long.",
    "I bought a plant to cheer myself up and it already looks sad.",
    "The shop downstairs changed owners and now it sells only candles.",
    "I've been listening to the same album on repeat for days.",
)
