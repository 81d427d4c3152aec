"""gunicorn settings shared by every start of Lightpath's web server (backend/scripts/run-stack.sh,
docker-compose.yml, backend/Dockerfile, the tests that start gunicorn): `--config
backend/gunicorn.conf.py`. The command lines keep the rest (bind, workers, threads, logs).
"""

from gunicorn.http import wsgi

# gunicorn writes its own `Server: gunicorn` line on every response (an application cannot drop
# it, only add a second one) and has no setting for it: its Response reads this module constant.
# Naming the web server helps nobody but a scanner matching known vulnerabilities (README "Security").
wsgi.SERVER = "lightpath"
