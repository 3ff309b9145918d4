"""Task generators (conditional instructions, ObjectNav, PlaceNav, route VLN)."""
