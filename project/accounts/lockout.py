from django.http import JsonResponse


def lockout_response(request, credentials=None, *args, **kwargs):
    """django-axes lockout answer in the API error shape."""
    return JsonResponse(
        {
            "message": "Too many failed attempts. Please wait 15 minutes and try again.",
            "type": "locked_out",
        },
        status=429,
    )
