"""The calibration profiles that ship with the product, installed as ``companion.calibration``.

Each subfolder is one profile (``profile.json`` and PNG templates); see README.md here.
"""
