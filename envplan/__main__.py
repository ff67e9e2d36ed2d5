from envplan.cli import main

raise SystemExit(main())
