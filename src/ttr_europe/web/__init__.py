"""Play in the browser: a Starlette application serving a plain HTML page over a WebSocket.

Needs the ``web`` extra (``pip install 'ttr_europe[web]'``): Starlette and Uvicorn. ``hub`` is
the protocol and holds no web framework; ``app`` wires it to Starlette; ``static`` holds the
page (HTML, CSS and JavaScript, no build step, nothing loaded from elsewhere).
"""
