"""``elfer read`` and ``elfer calibrate``: the card reader's commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .types import add_lang


def add_commands(commands) -> None:
    read = commands.add_parser(
        "read", help="read the cards in camera pictures",
        description="Finds the play area and every fully visible card in each picture and reads its colour and "
        "number with a confidence. A card that cannot be read with confidence is reported as unknown, never "
        "guessed. Exit status 2 when a picture cannot be read or the profile is broken.")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--profile", type=Path, metavar="DIR", help="a calibration profile (default: the shipped "
                      "profile for the reference deck)")
    read.add_argument("--json", action="store_true", help="one JSON line per picture")
    read.add_argument("--show", type=Path, metavar="OUT.png", help="draw what was seen over the picture "
                      "(several pictures: OUT-1.png, OUT-2.png, ...)")
    add_lang(read, "the summary and messages")
    read.set_defaults(run=_read)

    calibrate = commands.add_parser(
        "calibrate", help="learn a deck from single-card pictures, or from the set laid out in rows",
        description="Learns a deck and a camera from single-card pictures whose file names start with the card "
        "code (R11.png, r11-2.jpg). The 20 cards of one colour plus the 11 of each other colour (23 pictures) "
        "are enough to read all 80 cards. Prints what it learned and warns about what is missing; a picture in "
        "which no card is found is named, with the reason, and left out. Pictures larger than 1920 pixels on "
        "their long side (a phone's photos) are scaled down to it as they load. Faster: lay the 23 cards out "
        "in the play area in rows, in order, and give one or two pictures of them (--laid-out). Pictures from "
        "which no usable profile can be made are an error (exit 2), and nothing is written.")
    source = calibrate.add_mutually_exclusive_group(required=True)
    source.add_argument("--images", type=Path, metavar="DIR", help="a folder of pictures named by card")
    source.add_argument("--laid-out", type=Path, nargs="+", metavar="PICTURE",
                        help="one or two pictures of the play area with the 23 cards laid out face up in rows, "
                        "in the order R1 to R20, Y11, G11, B11: each row left to right, rows from the markers' "
                        "top edge down, a finger's width apart")
    calibrate.add_argument("--out", type=Path, required=True, metavar="PROFILE", help="the profile folder to write")
    calibrate.add_argument("--name", metavar="DECK", help="a name for the deck (default: the profile folder's name)")
    calibrate.add_argument("--strict", action="store_true",
                           help="fail (exit 2) when any picture is unusable, instead of leaving it out")
    add_lang(calibrate, "the report and messages")
    calibrate.set_defaults(run=_calibrate)


def _read(args: argparse.Namespace) -> int:
    import cv2

    from .. import report
    from ..vision.table_reader import TableReader
    from ..vision.profile import Profile, ProfileError

    texts = report.READING_TEXTS[args.lang]
    try:
        reader = TableReader(Profile.load(args.profile) if args.profile else None)
    except ProfileError as error:
        # the problem itself stays as the profile names it (a file and a field): what to do is said in the user's language
        key = "bad_profile" if args.profile.is_dir() else "no_profile"
        print(f"elfer read: {texts[key].format(folder=args.profile, error=error)}", file=sys.stderr)
        return 2
    status = 0
    for number, path in enumerate(args.images, start=1):
        # a missing file is named as such (OpenCV would also print its own warning about it)
        problem, frame = texts["no_file"], None
        if path.is_file():
            problem, frame = texts["not_picture"], cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            print(f"elfer read: {path}: {problem}", file=sys.stderr)
            status = 2
            continue
        reader.reset()  # each picture on its own: no mapping or scale carried over from the one before
        reading = reader.read(frame)
        if args.json:
            print(json.dumps({"image": str(path), "area": reading.area,
                              "cards": [seen.to_json() for seen in reading.cards]}, ensure_ascii=False))
        else:
            print(report.reading(str(path), reading, args.lang, profile_given=args.profile is not None))
        if args.show:
            out = args.show if len(args.images) == 1 else args.show.with_name(
                f"{args.show.stem}-{number}{args.show.suffix or '.png'}")
            if not cv2.imwrite(str(out), report.draw_reading(frame, reading, args.lang)):
                print(f"elfer read: {texts['cannot_write'].format(path=out)}", file=sys.stderr)
                status = 2
    return status


def _calibrate(args: argparse.Namespace) -> int:
    from ..vision.calibration import CalibrationError, calibrate, calibration_set
    from ..vision.calibration_notes import REPORT_TEXTS
    from ..vision.laid_out import laid_out_pictures, load_laid_out
    from ..vision.profile import ProfileError

    texts = REPORT_TEXTS[args.lang]
    try:
        images = args.images if args.images is not None else laid_out_pictures(
            load_laid_out(args.laid_out), calibration_set())
        profile, learned = calibrate(images, deck_name=args.name or args.out.name, strict=args.strict)
    except CalibrationError as error:
        print(f"elfer calibrate: {error.text(args.lang)}", file=sys.stderr)
        return 2
    try:
        profile.save(args.out)
    except (OSError, ProfileError) as error:
        why = getattr(error, "strerror", None) or error
        print(f"elfer calibrate: {texts['not_written'].format(out=args.out, error=why)}", file=sys.stderr)
        return 2
    print(learned.text(args.lang))
    print(texts["written"].format(out=args.out))
    return 0
