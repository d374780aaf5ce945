"""The contract test kit: every registered game against the engine contract, the leak test and the table."""
