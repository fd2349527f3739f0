from rulecraft.cli import main

raise SystemExit(main())
