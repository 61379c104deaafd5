"""tarl-memory core."""
