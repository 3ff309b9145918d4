"""Parser on 160 human-style paraphrases, each with its expected program (written by hand):
postposed conditions, "unless", "no X", "in case", missing commas, typographic quotes and
dashes, synonyms for go / rooms / objects. ≥ 90% must parse to the right program, the rest
must be refused with a message naming what was expected: never a silent wrong parse."""

from __future__ import annotations

import pytest

from navbench.tasks.conditional import (
    Go,
    If,
    ObjectRef,
    ParseError,
    Presence,
    Qualifier,
    Relation,
    Seq,
    parse,
)

VOCAB = ["sofa", "lamp", "bed", "coffee table", "stool", "dishwasher", "light", "sink", "oven",
         "television", "plant", "armchair", "toilet", "box", "car", "door", "desk", "mirror",
         "chair", "kitchen", "living room", "bedroom", "bathroom", "hallway", "garage", "office"]


def R(label: str, room: str, pred: str | None = None, anchor: str | None = None) -> ObjectRef:  # noqa: N802
    return ObjectRef(label, room, None if pred is None else Qualifier(pred, anchor or ""))


P = {
    # the paper's example
    "paper": If(Presence("coffee table", "kitchen"), Go(R("stool", "kitchen", "north of", "dishwasher")),
                Go(R("light", "bathroom", "below", "sink"))),
    "sofa": If(Presence("sofa", "living room"), Go(R("lamp", "kitchen")), Go(R("bed", "bedroom"))),
    "chain": If(Presence("oven", "kitchen"), Go(R("sink", "kitchen")),
                If(Relation(R("lamp", "bedroom"), "near", R("bed", "bedroom")), Go(R("lamp", "bedroom")),
                   Go(R("sofa", "living room")))),
    "nested": If(Presence("television", "living room"),
                 If(Presence("plant", "hallway"), Go(R("plant", "hallway")), Go(R("armchair", "living room"))),
                 Go(R("toilet", "bathroom"))),
    "seq": Seq((Go(R("door", "hallway")),
                If(Presence("box", "garage"), Go(R("car", "garage")), Go(R("desk", "office"))))),
    "rel": If(Relation(R("stool", "kitchen"), "east of", R("sink", "kitchen")), Go(R("stool", "kitchen")),
              Go(R("mirror", "bathroom"))),
}

CORPUS: list[tuple[str, str]] = [
    # ---- the paper's example, typography and wording (25)
    ("paper", "If there's a coffee table in the kitchen, head to the stool north of the dishwasher in the kitchen, otherwise make your way to the light below the sink in the bathroom."),
    ("paper", "If there\u2019s a coffee table in the kitchen, head to the stool north of the dishwasher in the kitchen, otherwise make your way to the light below the sink in the bathroom."),
    ("paper", "If there\u2019s a coffee table in the kitchen, head to the stool north of the dishwasher in the kitchen \u2014 otherwise make your way to the light below the sink in the bathroom."),
    ("paper", "If there\u2019s a coffee table in the kitchen \u2013 head to the stool north of the dishwasher in the kitchen; otherwise make your way to the light below the sink in the bathroom."),
    ("paper", "IF THERE'S A COFFEE TABLE IN THE KITCHEN, HEAD TO THE STOOL NORTH OF THE DISHWASHER IN THE KITCHEN, OTHERWISE MAKE YOUR WAY TO THE LIGHT BELOW THE SINK IN THE BATHROOM!"),
    ("paper", "If\u00a0there's a coffee table in the kitchen,\u00a0head to the stool north of the dishwasher in the kitchen, otherwise make your way to the light below the sink in the bathroom."),
    ("paper", "  If there's a coffee   table in the kitchen ,head to the stool north of the dishwasher in the kitchen ,otherwise make your way to the light below the sink in the bathroom .  "),
    ("paper", "If there's a coffee table in the kitchen head to the stool north of the dishwasher in the kitchen otherwise make your way to the light below the sink in the bathroom"),
    ("paper", "If there is a coffee table in the kitchen, go to the stool north of the dishwasher in the kitchen. Otherwise, go to the light below the sink in the bathroom."),
    ("paper", "In case there is a coffee table in the kitchen, walk to the stool north of the dishwasher in the kitchen; if not, walk to the light below the sink in the bathroom."),
    ("paper", "If the kitchen has a coffee table, head to the stool north of the dishwasher in the kitchen. If not, head to the light below the sink in the bathroom."),
    ("paper", "If the kitchen contains a coffee table, move to the stool north of the dishwasher in the kitchen, or else move to the light below the sink in the bathroom."),
    ("paper", "Head to the stool north of the dishwasher in the kitchen if there's a coffee table in the kitchen; otherwise, head to the light below the sink in the bathroom."),
    ("paper", "Go to the stool north of the dishwasher in the kitchen if the kitchen has a coffee table, otherwise go to the light below the sink in the bathroom."),
    ("paper", "Check whether there is a coffee table in the kitchen. If so, go to the stool north of the dishwasher in the kitchen. If not, go to the light below the sink in the bathroom."),
    ("paper", "Check if the kitchen has a coffee table: if so, walk over to the stool north of the dishwasher in the kitchen; if not, walk over to the light below the sink in the bathroom."),
    ("paper", "If there is no coffee table in the kitchen, go to the light below the sink in the bathroom; otherwise, go to the stool north of the dishwasher in the kitchen."),
    ("paper", "If the kitchen has no coffee table, get to the light below the sink in the bathroom. Otherwise, get to the stool north of the dishwasher in the kitchen."),
    ("paper", "If there isn't a coffee table in the kitchen, go to the light below the sink in the bathroom, else go to the stool north of the dishwasher in the kitchen."),
    ("paper", "Unless there is a coffee table in the kitchen, go to the light below the sink in the bathroom; otherwise, go to the stool north of the dishwasher in the kitchen."),
    ("paper", "Go to the light below the sink in the bathroom unless there's a coffee table in the kitchen, in which case go to the stool north of the dishwasher in the kitchen."),
    ("paper", "If you see a coffee table in the kitchen, head over to the stool north of the dishwasher in the kitchen, otherwise head over to the light below the sink in the bathroom."),
    ("paper", "If the kitchen doesn't have a coffee table, navigate to the light below the sink in the bathroom; otherwise navigate to the stool north of the dishwasher in the kitchen."),
    ("paper", "If there are any coffee tables in the kitchen, proceed to the stool north of the dishwasher in the kitchen, otherwise proceed to the light below the sink in the bathroom."),
    ("paper", "If there are no coffee tables in the kitchen, approach the light below the sink in the bathroom; otherwise approach the stool north of the dishwasher in the kitchen."),
    # ---- sofa: synonyms, missing commas, postposed, negation (35)
    ("sofa", "If there's a sofa in the living room, go to the lamp in the kitchen, otherwise go to the bed in the bedroom."),
    ("sofa", "If there's a couch in the living room, go to the lamp in the kitchen, otherwise go to the bed in the bedroom."),
    ("sofa", "If there's a couch in the lounge, go to the lamp in the kitchen, otherwise go to the bed in the bedroom."),
    ("sofa", "If there is a sofa in the sitting room, walk over to the lamp in the kitchen; otherwise walk over to the bed in the bedroom."),
    ("sofa", "if there is a sofa in the living room go to the lamp in the kitchen otherwise go to the bed in the bedroom"),
    ("sofa", "If there's a sofa in the living room go to the lamp in the kitchen, otherwise go to the bed in the bedroom."),
    ("sofa", "If there's a sofa in the living room, go to the lamp in the kitchen otherwise go to the bed in the bedroom."),
    ("sofa", "If there is a sofa in the living room, then go to the lamp in the kitchen, otherwise go to the bed in the bedroom."),
    ("sofa", "If there is a sofa in the living room, go to the lamp in the kitchen. Otherwise go to the bed in the bedroom."),
    ("sofa", "If there is a sofa in the living room, go to the lamp in the kitchen. Else, go to the bed in the bedroom."),
    ("sofa", "If there is a sofa in the living room, go to the lamp in the kitchen; failing that, go to the bed in the bedroom."),
    ("sofa", "If there is a sofa in the living room, go to the lamp in the kitchen. If there isn't, go to the bed in the bedroom."),
    ("sofa", "If the living room has a sofa, go to the lamp in the kitchen. If it doesn't, go to the bed in the bedroom."),
    ("sofa", "If you can see a sofa in the living room, go to the lamp in the kitchen, or else go to the bed in the bedroom."),
    ("sofa", "If you find a sofa in the living room, go to the lamp in the kitchen; if not, go to the bed in the bedroom."),
    ("sofa", "If a sofa is in the living room, go to the lamp in the kitchen, otherwise go to the bed in the bedroom."),
    ("sofa", "If a couch is inside the lounge, go over to the lamp inside the kitchen, otherwise go over to the bed inside the bedroom."),
    ("sofa", "Go to the lamp in the kitchen if there's a sofa in the living room, otherwise go to the bed in the bedroom."),
    ("sofa", "Go to the lamp in the kitchen if there's a sofa in the living room. Otherwise, go to the bed in the bedroom."),
    ("sofa", "Go to the lamp in the kitchen if there is a couch in the living room. If not, walk over to the bed in the bedroom."),
    ("sofa", "Go to the lamp in the kitchen in case there is a sofa in the living room; otherwise go to the bed in the bedroom."),
    ("sofa", "Go to the bed in the bedroom unless there is a sofa in the living room, in which case go to the lamp in the kitchen."),
    ("sofa", "Unless there's a sofa in the living room, go to the bed in the bedroom. Otherwise, go to the lamp in the kitchen."),
    ("sofa", "Unless the living room has a sofa, head to the bed in the bedroom; otherwise head to the lamp in the kitchen."),
    ("sofa", "If there's no sofa in the living room, go to the bed in the bedroom, otherwise go to the lamp in the kitchen."),
    ("sofa", "If there is no couch in the lounge, go to the bed in the bedroom; otherwise, go to the lamp in the kitchen."),
    ("sofa", "If no sofa is in the living room, go to the bed in the bedroom, otherwise go to the lamp in the kitchen."),
    ("sofa", "If the living room has no sofa, make your way to the bed in the bedroom. Otherwise, make your way to the lamp in the kitchen."),
    ("sofa", "If the living room does not have a sofa, go to the bed in the bedroom; otherwise go to the lamp in the kitchen."),
    ("sofa", "If you don't see a sofa in the living room, go to the bed in the bedroom, otherwise go to the lamp in the kitchen."),
    ("sofa", "If you do not see a sofa in the living room, go to the bed in the bedroom. Otherwise, go to the lamp in the kitchen."),
    ("sofa", "In case there is a sofa in the living room, travel to the lamp in the kitchen, otherwise travel to the bed in the bedroom."),
    ("sofa", "In case the living room contains a sofa go to the lamp in the kitchen otherwise go to the bed in the bedroom."),
    ("sofa", "Check whether there is a sofa in the living room: if so, go to the lamp in the kitchen; if not, go to the bed in the bedroom."),
    ("sofa", "See if there's a sofa in the living room. If so, go to the lamp in the kitchen. If not, go to the bed in the bedroom."),
    # ---- chain (25)
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen; otherwise, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom; otherwise, go to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen. Otherwise, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom. Otherwise, go to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen. Otherwise, if the lamp in the bedroom is near the bed, go to the lamp in the bedroom. If neither holds, go to the sofa in the living room."),
    ("chain", "If the kitchen has an oven, go to the sink in the kitchen; failing that, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom; in any other case, go to the sofa in the living room."),
    ("chain", "If the kitchen has an oven, go to the sink in the kitchen. If not, but the lamp is near the bed in the bedroom, go to the lamp in the bedroom. If neither is the case, go to the couch in the lounge."),
    ("chain", "If there\u2019s an oven in the kitchen, walk to the sink in the kitchen; otherwise, if the lamp is near the bed in the bedroom, walk to the lamp in the bedroom; otherwise, walk to the sofa in the living room."),
    ("chain", "Go to the sink in the kitchen if there is an oven in the kitchen. Otherwise, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom. Otherwise, go to the sofa in the living room."),
    ("chain", "Go to the sink in the kitchen if there is an oven in the kitchen; otherwise go to the lamp in the bedroom if the lamp is near the bed in the bedroom; otherwise go to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen. Otherwise, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom, or else go to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, head to the sink in the kitchen. Failing that, if the lamp is near the bed in the bedroom, head to the lamp in the bedroom. Otherwise, head to the sofa in the living room."),
    ("chain", "In case the kitchen has an oven, move to the sink in the kitchen; otherwise, if the lamp is near the bed in the bedroom, move to the lamp in the bedroom; if neither holds, move to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen; else, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom; else, go to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen go to the sink in the kitchen. Otherwise if the lamp is near the bed in the bedroom go to the lamp in the bedroom. Otherwise go to the sofa in the living room."),
    ("chain", "If there's an oven in the kitchen, get to the sink in the kitchen. Otherwise, check whether the lamp is near the bed in the bedroom: if so, get to the lamp in the bedroom, otherwise get to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen. Otherwise, if the lamp in the bedroom is near the bed, go to the lamp in the bedroom. In any other case, go to the couch in the living room."),
    ("chain", "If the kitchen contains an oven, go to the sink in the kitchen; otherwise, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom; otherwise, go to the couch in the lounge."),
    ("chain", "If you see an oven in the kitchen, go to the sink in the kitchen. Otherwise, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom. Otherwise, walk over to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen \u2014 otherwise, if the lamp is near the bed in the bedroom, go to the lamp in the bedroom \u2014 otherwise, go to the sofa in the living room."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen. Otherwise, if the lamp isn't near the bed in the bedroom, go to the sofa in the living room. Otherwise, go to the lamp in the bedroom."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen. Otherwise, if the lamp is not near the bed in the bedroom, go to the sofa in the living room; otherwise, go to the lamp in the bedroom."),
    ("chain", "If there is an oven in the kitchen, go to the sink in the kitchen. Otherwise, unless the lamp is near the bed in the bedroom, go to the sofa in the living room; otherwise, go to the lamp in the bedroom."),
    ("chain", "If the kitchen has no oven, then: if the lamp is near the bed in the bedroom, go to the lamp in the bedroom; otherwise, go to the sofa in the living room. Otherwise, go to the sink in the kitchen."),
    ("chain", "If there is no oven in the kitchen, check whether the lamp is near the bed in the bedroom: if so, go to the lamp in the bedroom, otherwise go to the sofa in the living room. Otherwise, go to the sink in the kitchen."),
    ("chain", "If there's an oven in the kitchen, proceed to the sink in the kitchen; otherwise, if the lamp is near the bed in the bedroom, proceed to the lamp in the bedroom; otherwise, proceed to the sofa in the living room."),
    ("chain", "If the kitchen has an oven, navigate to the sink in the kitchen. Otherwise, if the lamp is near the bed in the bedroom, navigate to the lamp in the bedroom. Otherwise, navigate to the sofa in the living room."),
    # ---- nested (25)
    ("nested", "If there is a television in the living room, check whether there is a plant in the hallway: if so, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there is a tv in the living room, check whether there is a plant in the hallway: if so, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room, then: if there is a plant in the hallway, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room, then: if there is a plant in the hallway, go to the plant in the hallway; if not, go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there's no television in the living room, go to the toilet in the bathroom. Otherwise, if there is a plant in the hallway, go to the plant in the hallway, or else go to the armchair in the living room."),
    ("nested", "If there's no television in the living room, go to the toilet in the bathroom. Otherwise, check whether there is a plant in the hallway: if so, go to the plant in the hallway, otherwise go to the armchair in the living room."),
    ("nested", "If the living room has no television, go to the toilet in the bathroom. Otherwise, if the hallway has a plant, go to the plant in the hallway; otherwise, go to the armchair in the living room."),
    ("nested", "If the living room has no tv, head to the toilet in the restroom. Otherwise, if the hall has a plant, head to the plant in the hall, otherwise head to the armchair in the lounge."),
    ("nested", "Unless there is a television in the living room, go to the toilet in the bathroom. Otherwise, if there is a plant in the hallway, go to the plant in the hallway, otherwise go to the armchair in the living room."),
    ("nested", "If there is a television in the living room, check whether the hallway has a plant: if so, walk to the plant in the hallway, or else walk to the armchair in the living room. If not, walk to the toilet in the bathroom."),
    ("nested", "If the living room has a television, then check whether there is a plant in the hallway: if so, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise go to the toilet in the bathroom."),
    ("nested", "In case there is a television in the living room, then: if there is a plant in the hallway, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room: if there is a plant in the hallway, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room, go to the plant in the hallway if there is a plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there\u2019s a television in the living room, then: if there\u2019s a plant in the hallway, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room, then: if there is a plant in the hallway go to the plant in the hallway otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If you see a television in the living room, check whether you see a plant in the hallway: if so, move to the plant in the hallway, otherwise move to the armchair in the living room. Otherwise, move to the toilet in the bathroom."),
    ("nested", "If there's no television in the living room, go to the toilet in the bathroom. Otherwise, if there's no plant in the hallway, go to the armchair in the living room, or else go to the plant in the hallway."),
    ("nested", "If there's no television in the living room, go to the toilet in the bathroom. Otherwise, go to the plant in the hallway if there is a plant in the hallway, otherwise go to the armchair in the living room."),
    ("nested", "If the living room contains a television, then: if the hallway contains a plant, go to the plant in the hallway, otherwise go to the armchair in the living room. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room, then: if there is a plant in the hallway, go to the plant in the hallway, otherwise go to the armchair in the living room. In any other case, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room, then: if there is a plant in the hallway, go to the plant in the hallway, otherwise go to the armchair in the living room. If there isn't, go to the toilet in the bathroom."),
    ("nested", "If there is a television in the living room, then: unless there is a plant in the hallway, go to the armchair in the living room, otherwise go to the plant in the hallway. Otherwise, go to the toilet in the bathroom."),
    ("nested", "If there isn't a television in the living room, go to the toilet in the bathroom. Otherwise, check if there is a plant in the hallway: if so, go to the plant in the hallway, otherwise go to the armchair in the living room."),
    ("nested", "If there is a television in the living room, then: if there is a plant in the hallway, get to the plant in the hallway, otherwise get to the armchair in the living room. Otherwise, get to the toilet in the washroom."),
    # ---- seq (25)
    ("seq", "First, go to the door in the hallway. Then: if there is a box in the garage, go to the car in the garage; otherwise, go to the desk in the office."),
    ("seq", "First go to the door in the hallway, and then: if there is a box in the garage, go to the car in the garage, otherwise go to the desk in the office."),
    ("seq", "Go to the door in the hallway first. After that, if there is a box in the garage, go to the car in the garage; otherwise, go to the desk in the office."),
    ("seq", "Go to the door in the hallway and then, if there is a box in the garage, go to the car in the garage, otherwise go to the desk in the office."),
    ("seq", "Go to the door in the hallway and then if there is a box in the garage, go to the car in the garage, otherwise go to the desk in the office."),
    ("seq", "Go to the door in the hallway, then if there is a box in the garage, go to the car in the garage, otherwise go to the desk in the office."),
    ("seq", "Walk to the door in the hallway and after that, if the garage has a box, walk to the car in the garage, or else walk to the desk in the office."),
    ("seq", "First, head to the door in the hall. Then: if there's a box in the garage, head to the car in the garage; if not, head to the desk in the study."),
    ("seq", "First, go to the door in the hallway. Then, if there are any boxes in the garage, go to the car in the garage; otherwise, go to the desk in the office."),
    ("seq", "First, go to the door in the hallway. Then: go to the car in the garage if there is a box in the garage; otherwise, go to the desk in the office."),
    ("seq", "First, go to the door in the hallway. Then: unless there is a box in the garage, go to the desk in the office; otherwise, go to the car in the garage."),
    ("seq", "First, go to the door in the hallway. Then: if there is no box in the garage, go to the desk in the office. Otherwise, go to the car in the garage."),
    ("seq", "First, go to the door in the hallway. Then: check whether there is a box in the garage. If so, go to the car in the garage. If not, go to the desk in the office."),
    ("seq", "First, move to the door in the hallway. Then: if the garage contains a box, move to the car in the garage; otherwise, move to the desk in the office."),
    ("seq", "First\u2014go to the door in the hallway. Then: if there is a box in the garage, go to the car in the garage; otherwise, go to the desk in the office."),
    ("seq", "Go to the door in the hallway first, then if there is a box in the garage go to the car in the garage, otherwise go to the desk in the office."),
    ("seq", "First, go to the door in the hallway. Then: if there\u2019s a box in the garage, go to the car in the garage; otherwise, go to the desk in the office."),
    ("seq", "First, go to the door in the hallway. Next, if there is a box in the garage, go to the car in the garage; otherwise, go to the desk in the office."),
    ("seq", "Make your way to the door in the hallway and then: if there is a box in the garage, make your way to the car in the garage; otherwise, make your way to the desk in the office."),
    ("seq", "First, go over to the door in the hallway. Then: if you see a box in the garage, go over to the car in the garage, otherwise go over to the desk in the office."),
    ("seq", "First, go to the door in the hallway. Then: in case there is a box in the garage, go to the car in the garage; otherwise, go to the desk in the office."),
    ("seq", "First, go to the door in the hallway. Then: if the garage has no box, go to the desk in the office; otherwise, go to the car in the garage."),
    ("seq", "First, go to the door in the hallway. Then: go to the desk in the office unless there is a box in the garage, in which case go to the car in the garage."),
    ("seq", "First, navigate to the door in the hallway. Then: if there is a box in the garage, navigate to the car in the garage; otherwise, navigate to the desk in the office."),
    ("seq", "First, proceed to the door in the hallway. Then: if there is a box in the garage, proceed to the car in the garage. Otherwise, proceed to the desk in the office."),
    # ---- relation conditions (25)
    ("rel", "If the stool is east of the sink in the kitchen, go to the stool in the kitchen, otherwise go to the mirror in the bathroom."),
    ("rel", "If the stool in the kitchen is east of the sink, go to the stool in the kitchen, otherwise go to the mirror in the bathroom."),
    ("rel", "If the stool in the kitchen is east of the sink, go to the stool in the kitchen. Otherwise, go to the mirror in the bathroom."),
    ("rel", "If the stool in the kitchen isn't east of the sink, go to the mirror in the bathroom; otherwise go to the stool in the kitchen."),
    ("rel", "If the stool is not east of the sink in the kitchen, go to the mirror in the bathroom, otherwise go to the stool in the kitchen."),
    ("rel", "Unless the stool is east of the sink in the kitchen, go to the mirror in the bathroom; otherwise, go to the stool in the kitchen."),
    ("rel", "Go to the stool in the kitchen if the stool is east of the sink in the kitchen, otherwise go to the mirror in the bathroom."),
    ("rel", "Go to the mirror in the bathroom unless the stool is east of the sink in the kitchen, in which case go to the stool in the kitchen."),
    ("rel", "Check whether the stool is east of the sink in the kitchen: if so, go to the stool in the kitchen; if not, go to the mirror in the bathroom."),
    ("rel", "Check whether the stool in the kitchen is east of the sink. If so, walk to the stool in the kitchen. If not, walk to the mirror in the bathroom."),
    ("rel", "If the stool in the kitchen is east of the sink go to the stool in the kitchen otherwise go to the mirror in the bathroom."),
    ("rel", "In case the stool is east of the sink in the kitchen, go to the stool in the kitchen; otherwise, go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, head to the stool in the kitchen, or else head to the mirror in the restroom."),
    ("rel", "If the stool is east of the sink in the kitchen, then go to the stool in the kitchen; else go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, go to the stool in the kitchen. If it isn't, go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, go to the stool in the kitchen. If it is not, go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, go to the stool in the kitchen; failing that, go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, go to the stool in the kitchen; in any other case, go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, move to the stool in the kitchen, otherwise move to the mirror in the washroom."),
    ("rel", "If the stool is east of the sink in the kitchen, get to the stool in the kitchen, otherwise get to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, return to the stool in the kitchen, otherwise return to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, go to the stool in the kitchen \u2013 otherwise go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, go back to the stool in the kitchen, otherwise go to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, walk up to the stool in the kitchen, otherwise walk up to the mirror in the bathroom."),
    ("rel", "If the stool is east of the sink in the kitchen, head over to the stool in the kitchen. Otherwise, head over to the mirror in the bathroom."),
]

#: Texts that must be refused (their meaning is not a program of this grammar or is unclear).
REFUSE = [
    "If there is a lamp in the kitchen and a sofa in the living room, go to the bed in the bedroom, otherwise go to the sink in the kitchen.",
    "If there is a lamp in the kitchen or a sofa in the living room, go to the bed in the bedroom, otherwise go to the sink in the kitchen.",
    "If there is a sofa in the living room, go to the lamp in the kitchen.",
    "If there is a sofa in the living room, go to the lamp, otherwise go to the bed in the bedroom.",
    "If there is a unicorn in the living room, go to the lamp in the kitchen, otherwise go to the bed in the bedroom.",
    "If there is a sofa in the attic, go to the lamp in the kitchen, otherwise go to the bed in the bedroom.",
    "Dance to the lamp in the kitchen.",
    "If the stool is beside the sink in the kitchen, go to the stool in the kitchen, otherwise go to the mirror in the bathroom.",
    "If there is a sofa in the living room, go to the lamp in the kitchen, in which case go to the bed in the bedroom.",
    "If there is a sofa in the living room, go to the lamp in the kitchen, otherwise go to the bed in the bedroom, otherwise go to the sink in the kitchen.",
]


def test_corpus_size_and_accuracy() -> None:
    assert len(CORPUS) >= 150
    right, refused, wrong = 0, [], []
    for key, text in CORPUS:
        try:
            got = parse(text, VOCAB)
        except ParseError as e:
            assert "expected" in str(e)
            refused.append((text, str(e)))
            continue
        if got == P[key]:
            right += 1
        else:
            wrong.append((text, got))
    assert not wrong, wrong[:3]  # never a silent wrong parse
    assert right / len(CORPUS) >= 0.9, refused[:5]


@pytest.mark.parametrize("text", REFUSE)
def test_refused_with_a_clear_message(text: str) -> None:
    with pytest.raises(ParseError, match="expected"):
        parse(text, VOCAB)


def test_synonyms_never_replace_a_word_the_scene_uses() -> None:
    text = "If there is a couch in the living room, go to the tv in the living room, otherwise go to the bed in the bedroom."
    p = parse(text, [*VOCAB, "couch", "tv"])
    assert p.cond == Presence("couch", "living room") and p.then.target.label == "tv"  # type: ignore[union-attr]
    assert parse(text) == p  # without a vocabulary, words are kept as written
