"""gpiozero's mock pins for the device tests: a fresh factory per test, reset after it
(pins a test leaves open would otherwise stay "in use")."""

from __future__ import annotations

import pytest


@pytest.fixture
def pins():
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
