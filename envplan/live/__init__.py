"""The live machine: probing it, `doctor`, `init`, `explain`'s diagnosis of error logs, `abi-check`, ELF readers."""
