"""``python -m appliance ...`` is ``quizbox ...``."""

from appliance.cli import main

raise SystemExit(main())
