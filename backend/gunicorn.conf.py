"""gunicorn settings shared by every start of Lightpath's web server (backend/scripts/run-stack.sh,
docker-compose.yml, backend/Dockerfile, the tests that start gunicorn): `--config
backend/gunicorn.conf.py`. The command lines keep the rest (bind, workers, threads, logs).
"""

from gunicorn.http import wsgi

# gunicorn writes its own `Server: gunicorn` line on every response (an application cannot drop
# it, only add a second one) and has no setting for it: its Response reads this module constant.
# Naming the web server helps nobody but a scanner matching known vulnerabilities (README "Security").
wsgi.SERVER = "lightpath"

# gunicorn 24+ opens a control socket at one path per user ($HOME/.gunicorn/gunicorn.ctl): two stacks
# on one machine (the demo beside the e2e suite, two e2e runs) share it, and one stack's start or
# stop then reaches the other (session 29: an e2e stack's gunicorn got the SIGTERM meant for
# another's). Nothing of Lightpath uses the control interface.
control_socket_disable = True
