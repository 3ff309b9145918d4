"""What OSM tags mean (scene/sources/osm_tags.py): widths, sidewalks, parking, heights, colours,
PlaceNav categories and terrain classes, each against values worked out by hand."""

from __future__ import annotations

import pytest

from navbench.scene.procgen.urban import PLACE_CATEGORIES
from navbench.scene.sources import osm_tags as T


def test_parse_length() -> None:
    assert T.parse_length("7") == 7.0 and T.parse_length("7.5 m") == 7.5 and T.parse_length("3,5") == 3.5
    assert T.parse_length("24'") == pytest.approx(24 * 0.3048) and T.parse_length("10 ft") == pytest.approx(3.048)
    assert T.parse_length("wide") is None and T.parse_length("0") is None and T.parse_length(None) is None


def test_road_width_from_width_lanes_or_type() -> None:
    assert T.road_width({"highway": "residential", "width": "9"}) == (9.0, None)
    assert T.road_width({"highway": "residential", "lanes": "3"}) == (pytest.approx(9.75), 3)
    assert T.road_width({"highway": "primary"}) == (pytest.approx(13.0), None)  # 4 lanes x 3.25
    assert T.road_width({"highway": "service"}) == (pytest.approx(3.25), None)
    assert T.road_width({"highway": "residential", "width": "500"}) == (pytest.approx(6.5), None)  # implausible


def test_sidewalk_widths_left_right_as_tagged() -> None:
    assert T.sidewalk_widths({"highway": "residential"}, 3.0) == (3.0, 3.0)
    assert T.sidewalk_widths({"highway": "service"}, 3.0) == (0.0, 0.0)
    assert T.sidewalk_widths({"highway": "residential", "sidewalk": "left"}, 3.0) == (3.0, 0.0)
    assert T.sidewalk_widths({"highway": "residential", "sidewalk": "separate"}, 3.0) == (0.0, 0.0)
    assert T.sidewalk_widths({"highway": "service", "sidewalk": "both", "sidewalk:width": "2"}, 3.0) == (2.0, 2.0)
    assert T.sidewalk_widths({"highway": "tertiary", "sidewalk:right": "no", "sidewalk:left:width": "4.5"},
                             3.0) == (4.5, 0.0)


def test_parking_allowed() -> None:
    assert T.parking_allowed({"highway": "residential"})
    assert not T.parking_allowed({"highway": "primary"})
    assert not T.parking_allowed({"highway": "residential", "parking:both": "no"})
    assert T.parking_allowed({"highway": "primary", "parking:lane:right": "parallel"})
    assert not T.parking_allowed({"highway": "service", "service": "driveway", "parking:both": "lane"})


def test_building_height() -> None:
    assert T.building_height({"building": "yes", "height": "21.5"}, 9.0) == 21.5
    assert T.building_height({"building": "yes", "building:levels": "4"}, 9.0) == 12.0
    assert T.building_height({"building": "yes", "building:levels": "4", "roof:levels": "1"}, 9.0) == 15.0
    assert T.building_height({"building": "house"}, 9.0) == 7.0 and T.building_height({"building": "yes"}, 9.0) == 9.0
    assert T.building_height({"building": "yes", "height": "1"}, 9.0) == 2.5


def test_building_colour_words() -> None:
    assert T.building_colour({"building:colour": "Red"}) == "red"
    # tan (210, 180, 140): squared RGB distance to beige (222, 196, 148) is 144 + 256 + 64 = 464,
    # to white (240, 240, 235) 900 + 3600 + 9025, to yellow (240, 205, 64) 900 + 625 + 5776
    assert T.building_colour({"building:colour": "#d2b48c"}) == "beige"
    assert T.building_colour({"building:colour": "tan"}) == "beige"
    assert T.building_colour({"building:colour": "#fff"}) == "white"
    assert T.building_colour({"building:material": "brick"}) == "red"
    assert T.building_colour({"building": "yes"}) is None


def test_place_categories_cover_the_17_and_count_other_kinds() -> None:
    assert set(T.PLACE_TABLE.values()) == set(PLACE_CATEGORIES) and len(PLACE_CATEGORIES) == 17
    assert T.place_category({"shop": "bakery", "name": "Brot"}) == "bakery"
    assert T.place_category({"amenity": "pub"}) == "bar"
    assert T.place_category({"tourism": "hostel"}) == "hotel"
    assert T.place_kind({"shop": "hardware"}) == "shop=hardware" and T.place_category({"shop": "hardware"}) is None
    assert T.place_kind({"office": "company"}) == "office=company"
    for furniture in ({"amenity": "bench"}, {"amenity": "parking"}, {"leisure": "park"}, {"shop": "vacant"}):
        assert T.place_kind(furniture) is None


def test_furniture_and_areas() -> None:
    assert T.furniture_label({"natural": "tree"}) == "tree"
    assert T.furniture_label({"highway": "street_lamp"}) == "street light"
    assert T.furniture_label({"vending": "parking_tickets", "amenity": "vending_machine"}) == "vending machine"
    assert T.area_class({"natural": "water"}) == "water" and T.area_class({"leisure": "park"}) == "green"
    assert T.area_class({"amenity": "parking"}) == "parking"
    assert T.area_class({"amenity": "parking", "parking": "underground"}) is None
    assert T.area_class({"highway": "pedestrian", "area": "yes"}) == "plaza"
    assert T.area_class({"highway": "pedestrian"}) is None
    assert T.area_region({"landuse": "retail"}) == "commercial" and T.area_region({"landuse": "construction"}) == "construction"
    assert T.area_region({"leisure": "park"}) == "park" and T.area_region({"place": "square"}) == "plaza"
