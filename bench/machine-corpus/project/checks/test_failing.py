import unittest


class Plain(unittest.TestCase):
    def test_adds(self):
        self.assertEqual(1 + 1, 3)


if __name__ == "__main__":
    unittest.main()
