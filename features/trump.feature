@TRUMP
Feature: Trumps
  After the deal one card is turned face up: the trump card. Its suit is the trump suit for the
  whole game. The trump card stays part of the talon, lying face up under it, and is the last
  card anyone draws. Tables differ on which card is turned: the next card after the deal (turned
  and slid under the talon), or the card already at the bottom of the deck.

  When the players use up the whole pack in the deal (six players with 36 cards, four with 24)
  there is no talon: the last card dealt, which is the dealer's own, is shown to fix trumps and
  stays in the dealer's hand.

  Rule: Which card is turned up
    @R-TRUMP-1
    Scenario Outline: The trump card with trump_card <trump_card>
      Given a 2-player podkidnoy game
      And the option trump_card is <trump_card>
      And the deck is unshuffled
      And player 1 deals
      When the game is dealt
      Then the trump card is <trump>
      And the trump suit is <suit>
      And the trump card lies face up at the bottom of the talon
      And the talon holds 24 cards

      Examples:
        | trump_card | trump | suit     |
        | after_deal | 9D    | diamonds |
        | bottom     | AS    | spades   |

  Rule: The trump card lies under the talon and is drawn last
    @R-TRUMP-2
    Scenario: The talon ends with the trump card
      Given a 3-player podkidnoy game
      And the deck is shuffled with seed 9
      When the game is dealt
      Then the trump card lies face up at the bottom of the talon
      And the talon holds 18 cards

    @R-TRUMP-2 @R-DRAW-1
    Scenario: The last card drawn is the trump card, and everyone knows who has it
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon, top first, is 7S, 9H
      And player 0 holds 6C, 7C, 8C, TD, JD, QD
      And player 1 holds 9C, TC, JC, KS, AS, QC
      When player 0 attacks with 6C
      And the defender beats 6C with 9C
      And player 0 passes
      Then the bout ends and its cards are discarded
      And player 0 holds 7C 8C TD JD QD 7S
      And player 1 holds TC JC KS AS QC 9H
      And player 1 is known to hold 9H
      And the talon is empty

  Rule: With no talon the dealer's last card fixes trumps and stays in his hand
    @R-TRUMP-3
    Scenario Outline: <players> players share the whole <deck_size>-card pack
      Given a <players>-player podkidnoy game
      And the option deck_size is <deck_size>
      And the option deal_order is <deal_order>
      And the deck is unshuffled
      When the game is dealt
      Then the talon is empty
      And the trump card is AS
      And the dealer is player <dealer>
      And player <dealer> holds <dealer hand>
      And player <dealer> is known to hold AS

      Examples:
        | players | deck_size | deal_order    | dealer | dealer hand       |
        | 6       | 36        | one_at_a_time | 5      | JC 8D AD JH 8S AS |
        | 6       | 36        | six_at_once   | 5      | 9S TS JS QS KS AS |
        | 4       | 24        | one_at_a_time | 3      | QC TD AD QH TS AS |

    @R-TRUMP-3 @opt:trump_card=bottom
    Scenario: Turning the bottom card changes nothing when there is no talon
      Given a 6-player podkidnoy game
      And the deck is unshuffled
      When the game is dealt
      Then the talon is empty
      And the trump card is AS
      And player 5 holds JC 8D AD JH 8S AS
      And player 5 is known to hold AS
