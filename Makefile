# The two commands a new machine needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# Server processes: more than one on the embedded default share pushes,
# throttles and the scheduler through a hub in their parent (core/hub.py).
WORKERS ?= 1

.PHONY: run test install install-dev migrate browser gettext messages typecheck clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Stamp files make the installs re-run only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py serve --port $(PORT) --workers $(WORKERS)

# Browser tests drive Debian's Chromium; nothing is downloaded by Playwright.
browser:
	@test -x /usr/bin/chromium || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
		|| echo "warning: could not install chromium; browser tests will fail"

# GNU gettext (msgfmt) from Debian compiles the catalogues (<app>/locale/*/LC_MESSAGES/*.po);
# the tests check that every committed .mo matches its .po.
gettext:
	@command -v msgfmt >/dev/null || (apt-get update -qq && apt-get install -y -qq gettext >/dev/null) \
		|| echo "warning: could not install gettext; the catalogue tests will fail"

# After changing the server's messages: update the Korean catalogues of these apps
# (games' includes its own apps, such as games/sokoban/locale), translate the new
# entries, then `make messages` again to compile them. The scripts' catalogues
# (djangojs) are made with `makemessages -d djangojs` in their app.
messages: install-dev gettext
	@for app in games accounts matchmaking ratings core; do \
		(cd $$app && ../$(BIN)/python ../manage.py makemessages -l ko --no-obsolete --verbosity 0 \
			&& ../$(BIN)/python ../manage.py compilemessages -l ko --verbosity 0); \
	done

# The engines are pure and typed: mypy --strict (configured in pyproject.toml).
typecheck: install-dev
	$(BIN)/mypy

test: install-dev browser gettext typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
