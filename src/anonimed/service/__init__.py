"""The HTTP service (``anonimed serve``) and the review page (``anonimed review``); needs ``pip install .[serve]``.

:func:`~anonimed.service.app.create_app` builds the FastAPI app; :class:`~anonimed.service.settings.ServiceSettings`
says how (model, token, limits, review folder).  See ``docs/service.md``.
"""
