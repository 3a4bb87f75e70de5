"""HTTP front ends for the greeter (FastAPI and Flask flavours)."""
from http import HTTPStatus

from fastapi import FastAPI, HTTPException
from fastapi.responses import JSONResponse
from flask import abort

from hello.errors import HelloError
from hello.greeter import Greeter

app = FastAPI()
greeters = {}


@app.get("/greet/{language}/{name}")
def greet(language: str, name: str):
    if language not in greeters:
        raise HTTPException(status_code=404, detail=f"no greeter for language {language}")
    try:
        return {"text": greeters[language].greet(name)}
    except HelloError as e:
        return JSONResponse(status_code=429, content={"error": f"too many greetings: {e}"})


@app.post("/greeters/{language}")
def create(language: str):
    if language in greeters:
        raise HTTPException(status_code=HTTPStatus.CONFLICT, detail="greeter already exists")
    greeters[language] = Greeter(language)
    return {"ok": True}


def legacy_greet(name):
    if len(name) > 64:
        abort(400, "name is longer than 64 characters")
    try:
        return greeters["en"].greet(name)
    except KeyError as e:
        raise HTTPException(status_code=500, detail="the English greeter is gone") from e
