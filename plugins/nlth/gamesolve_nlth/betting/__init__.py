"""Action abstraction, the public betting tree it induces, and action translation."""
