from project.core.routers import make_router

router = make_router(tags=["reporting"])
