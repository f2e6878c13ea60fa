"""HTTP adapter: routes, request and response schemas, error mapping, the result cache.

The path of a request, for example ``POST /shanten``:

1. **Middleware** (:mod:`app.main` builds the stack; outermost first):
   :class:`~app.api.observe.Observe` (request id, metrics, access log), Starlette's
   error middleware, CORS and the API-key check if configured
   (:mod:`~app.api.auth`), then :class:`~app.api.body_limit.BodySizeLimit`.
2. **The route** (``routes/shanten.py``) declares its body model in its signature
   and marks itself :func:`~app.api.request_path.replayable`.  Its router's route
   class, :class:`~app.api.request_path.BodyRoute`, reads the body, answers a
   repeated body from the result cache, validates the body with the model's
   compiled JSON validator, and calls the route function (a plain ``def`` in the
   thread pool).
3. **Core values** (:mod:`app.api.questions`): ``ask_one`` / ``ask_batch`` turn
   the validated body into a per-request :class:`~app.core.shape.engine.Checker` and
   canonical :class:`~app.api.questions.Question` values; every core error raised
   on the way is located at the request field it came from
   (:func:`app.api.errors.located`).  ``Asked.answer`` looks each question up in
   the one result cache (:class:`~app.api.cache.ResultCache`, reached as
   ``service_state(request).cache``) under its exact canonical key, else asks the
   core (:mod:`app.core`) and renders the answer.
4. **Rendering** (:mod:`app.api.render`): the hot answers (shanten, waits) are
   written straight to JSON bytes from precomputed fragments, which the batch
   writer (:mod:`app.api.batch_fast`) shares; the others are pydantic models
   (``*_schemas.py``) dumped to JSON.  The route returns the bytes.
5. **Errors**: a core :class:`~app.core.errors.TenpaiError` or an
   :class:`~app.api.errors.ApiError` propagates to the handlers installed by
   :func:`app.api.errors.install_error_handlers`, which write the one envelope
   (``{"error", "detail": [{"type", "loc", "msg", "input", "ctx"}]}``) with the status of
   :data:`app.api.errors.ERROR_STATUS`.

Heavy work (a lookahead, a value search, ``/simulate``, wildcard decompositions)
runs off the event loop within a wall-clock budget and a per-process cap on
concurrent heavy requests (:mod:`app.api.heavy`); every answer is bounded in
bytes before the work (:mod:`app.api.answer_size`).  The bounds a client meets
are listed by ``GET /limits`` (``routes/limits.py``).
"""
