"""The reach stage: from command line, client configs and settings to concrete targets."""
