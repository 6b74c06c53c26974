"""Import of the telematics vendor feed."""
