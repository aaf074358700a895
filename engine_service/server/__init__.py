"""The gRPC service around the rules core: conversion, errors, servicer and server.

``app.build_server`` builds a server in-process (tests, benchmarks); ``engine_service.cli``
runs it from the command line.
"""
