"""The recall evaluation: a fixed corpus of sessions and questions, and the code that scores rankings."""
