"""``python -m appliance ...`` is ``quizbox ...``."""

from appliance.box.cli import main

raise SystemExit(main())
