"""Small deck files for the import tests (the same shapes the deck format documents)."""

GOOD_CSV = (
    "id,category,difficulty,family,tags,question,answer,unit,fact,hint1,hint2,source\r\n"
    "pub-1,space,easy,true,moon,How many people have walked on the Moon?,12,people,"
    "All between 1969 and 1972.,More than 5 people.,Less than 20 people.,NASA\r\n"
    "pub-2,nature,medium,true,,How many legs does a spider have?,8,legs,Insects have six.,"
    "More than 4 legs.,Less than 10 legs.,Any field guide\r\n"
    "pub-3,science,medium,false,,=HYPERLINK(\"x\") How many moons does Mars have?,2,moons,"
    "Phobos and Deimos.,More than 0 moons.,Less than 5 moons.,NASA\r\n"
)

# line 3: the answer is not a number; line 4: the first hint is false (the answer is 8)
BAD_CSV = (
    "id,category,difficulty,family,tags,question,answer,unit,fact,hint1,hint2,source\r\n"
    "bad-1,space,easy,true,,How many people have walked on the Moon?,12,people,Fact.,"
    "More than 5 people.,Less than 20 people.,NASA\r\n"
    "bad-2,space,easy,true,,How tall is Olympus Mons?,very tall,km,Fact.,More than 5 km.,Less than 30 km.,NASA\r\n"
    "bad-3,nature,medium,true,,How many legs does a spider have?,8,legs,Fact.,More than 10 legs.,"
    "Less than 12 legs.,Field guide\r\n"
)
