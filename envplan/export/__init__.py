"""Take a plan where it runs: Dockerfiles, offline wheelhouses, CI workflows, fleet reports."""
