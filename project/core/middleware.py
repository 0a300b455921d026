from django.middleware.csrf import get_token


class ApiCsrfCookieMiddleware:
    """Every ``GET /api/...`` answer sets the ``csrftoken`` cookie, 401s included (decisions.md §1)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and request.path.startswith("/api/"):
            get_token(request)
        return self.get_response(request)
