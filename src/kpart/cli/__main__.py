from kpart.cli import run

run()
